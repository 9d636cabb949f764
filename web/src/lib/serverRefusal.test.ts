import { hasErrors } from './fieldErrors';
import { serverFieldErrors } from './serverRefusal';

const refusal = (field: string, message: string) => ({
  errors: [{ message, extensions: { code: 'BAD_USER_INPUT', field } }],
});

describe('serverFieldErrors', () => {
  it('puts the server’s message beside the field it names, by input path or argument', () => {
    expect(
      serverFieldErrors(refusal('input.newPassword', 'Password must be at least 8 characters'), ['newPassword']),
    ).toEqual({
      newPassword: 'Password must be at least 8 characters',
    });
    expect(serverFieldErrors(refusal('email', 'Email is required'), ['email'])).toEqual({ email: 'Email is required' });
  });

  it('leaves out fields the form does not have, and errors that name no field', () => {
    expect(serverFieldErrors(refusal('input.token', 'This link has expired'), ['newPassword'])).toEqual({});
    expect(
      serverFieldErrors({ errors: [{ message: 'Email already registered', extensions: { code: 'CONFLICT' } }] }, [
        'email',
      ]),
    ).toEqual({});
    expect(serverFieldErrors(new Error('offline'), ['email'])).toEqual({});
  });
});

describe('hasErrors', () => {
  it('counts only fields with a message', () => {
    expect(hasErrors({ email: undefined, password: undefined })).toBe(false);
    expect(hasErrors({ email: undefined, password: 'Password is required' })).toBe(true);
  });
});
