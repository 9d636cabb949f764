import {
  emailRequired,
  hasErrors,
  newPasswordProblem,
  optionalName,
  validateEmail,
  validateRegistration,
  validateSignIn,
} from './authValidation';

describe('validateEmail', () => {
  it('requires a plausible address', () => {
    expect(validateEmail('')).toBe('Email is required');
    expect(validateEmail('   ')).toBe('Email is required');
    expect(validateEmail('ada')).toBe('Email must be a valid email address');
    expect(validateEmail('ada@example')).toBe('Email must be a valid email address');
    expect(validateEmail('ada lovelace@example.com')).toBe('Email must be a valid email address');
    expect(validateEmail('ada@example.com')).toBeUndefined();
    expect(validateEmail(' ada@example.co.uk ')).toBeUndefined();
  });
});

describe('validateSignIn', () => {
  it('requires e-mail and password, with no length rule', () => {
    expect(validateSignIn({ email: '', password: '' })).toEqual({
      email: 'Email is required',
      password: 'Password is required',
    });
    expect(validateSignIn({ email: 'ada@example.com', password: 'x' })).toEqual({});
  });
});

describe('validateRegistration', () => {
  const valid = { email: 'ada@example.com', password: '12345678', firstName: '', lastName: '' };

  it('accepts names left empty', () => {
    expect(validateRegistration(valid)).toEqual({});
  });

  it('requires a password of at least 8 characters', () => {
    expect(validateRegistration({ ...valid, password: '' }).password).toBe('Password is required');
    expect(validateRegistration({ ...valid, password: '1234567' }).password).toBe(
      'Password must be at least 8 characters',
    );
  });

  it('requires a valid e-mail', () => {
    expect(validateRegistration({ ...valid, email: 'nope' }).email).toBe('Email must be a valid email address');
  });
});

describe('helpers', () => {
  it('hasErrors looks for any message', () => {
    expect(hasErrors({})).toBe(false);
    expect(hasErrors({ email: undefined })).toBe(false);
    expect(hasErrors({ email: 'Email is required' })).toBe(true);
  });

  it('optionalName trims and drops empty names', () => {
    expect(optionalName('  Ada ')).toBe('Ada');
    expect(optionalName('   ')).toBeUndefined();
  });
});

describe('emailRequired', () => {
  it('asks only that an address is there', () => {
    expect(emailRequired('  ')).toBe('Email is required');
    expect(emailRequired('ada')).toBeUndefined();
  });
});

describe('newPasswordProblem', () => {
  it('refuses a new password shorter than the server accepts, an empty one included', () => {
    expect(newPasswordProblem('')).toBe('Password must be at least 8 characters');
    expect(newPasswordProblem('1234567')).toBe('Password must be at least 8 characters');
    expect(newPasswordProblem('12345678')).toBeUndefined();
  });
});
