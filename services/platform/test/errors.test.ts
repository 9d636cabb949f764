import { badInput, conflict, forbidden, httpStatusOf, notFound, tooManyRequests, unauthenticated } from '../src/errors';

describe('httpStatusOf', () => {
  it.each([
    ['BAD_USER_INPUT', 400],
    ['PAYLOAD_TOO_LARGE', 400],
    ['UNAUTHENTICATED', 401],
    ['FORBIDDEN', 403],
    ['NOT_FOUND', 404],
    ['CONFLICT', 409],
    ['TOO_MANY_REQUESTS', 429],
    ['SERVICE_UNAVAILABLE', 503],
    ['INTERNAL_SERVER_ERROR', 500],
  ])('maps %s to %i', (code, status) => {
    expect(httpStatusOf(code)).toBe(status);
  });

  it('maps anything unknown to 500', () => {
    for (const code of ['SOMETHING_ELSE', 'bad_user_input', '', undefined, null, 404, {}]) {
      expect(httpStatusOf(code)).toBe(500);
    }
  });

  it('is not fooled by names every object inherits', () => {
    for (const code of ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf']) {
      expect(httpStatusOf(code)).toBe(500);
    }
  });
});

describe('error helpers', () => {
  it('badInput names the field and, by default, lists that one problem', () => {
    const error = badInput('email', 'Email is required');
    expect(error.message).toBe('Email is required');
    expect(error.extensions).toEqual({
      code: 'BAD_USER_INPUT',
      field: 'email',
      problems: [{ field: 'email', message: 'Email is required' }],
    });
  });

  it('badInput carries every problem it is given', () => {
    const problems = [
      { field: 'email', message: 'Email is required' },
      { field: 'password', message: 'Password must be at least 8 characters' },
    ];
    const error = badInput('email', 'Email is required', problems);
    expect(error.extensions.problems).toEqual(problems);
    expect(error.toJSON().extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'email', problems });
  });

  it('each helper gives the code whose status a REST client expects', () => {
    expect(httpStatusOf(unauthenticated().extensions.code)).toBe(401);
    expect(unauthenticated().message).toBe('Authentication required');
    expect(httpStatusOf(forbidden('No').extensions.code)).toBe(403);
    expect(httpStatusOf(notFound('Gone').extensions.code)).toBe(404);
    expect(httpStatusOf(conflict('Taken').extensions.code)).toBe(409);
    expect(httpStatusOf(tooManyRequests('Slow down', 30).extensions.code)).toBe(429);
  });

  it('forbidden carries why, for the gateway to tell the client', () => {
    const error = forbidden('Subscription required', { requiresAuth: true, reason: 'trial_expired' });
    expect(error.extensions).toEqual({ code: 'FORBIDDEN', requiresAuth: true, reason: 'trial_expired' });
  });

  it('tooManyRequests carries how long to wait', () => {
    expect(tooManyRequests('Too many attempts', 42).extensions).toEqual({
      code: 'TOO_MANY_REQUESTS',
      retryAfterSeconds: 42,
    });
  });
});
