import {
  normalizeEmail,
  validateLogin,
  validateProfile,
  validateRegistration,
  type FieldProblem,
  type RegistrationInput,
} from '../src/domain/registration';

const valid: RegistrationInput = {
  email: 'ann@example.com',
  password: 'correct horse',
  firstName: 'Ann',
  lastName: 'Lee',
};

/** The problems of an input that must be rejected (fails the test when it is accepted). */
function problemsOf(input: RegistrationInput): FieldProblem[] {
  const result = validateRegistration(input);
  if (result.ok) throw new Error(`expected ${JSON.stringify(input)} to be rejected`);
  return result.problems;
}

function accepted(input: RegistrationInput) {
  const result = validateRegistration(input);
  if (!result.ok) throw new Error(`expected acceptance, got ${JSON.stringify(result.problems)}`);
  return result.value;
}

describe('normalizeEmail', () => {
  it('trims and lower-cases, so one address is one account however it is typed', () => {
    expect(normalizeEmail('  Ann.Lee@Example.COM \t')).toBe('ann.lee@example.com');
    expect(normalizeEmail('ann.lee@example.com')).toBe('ann.lee@example.com');
  });
});

describe('validateProfile', () => {
  it('changes only the fields given, clears an empty name and canonicalises the zone', () => {
    expect(validateProfile({ firstName: ' Sam ', lastName: '' })).toEqual({
      ok: true,
      value: { firstName: 'Sam', lastName: null },
    });
    expect(validateProfile({ timeZone: 'asia/tokyo' })).toEqual({ ok: true, value: { timeZone: 'Asia/Tokyo' } });
    expect(validateProfile({ timeZone: 'Not/A_Zone' })).toMatchObject({ ok: false, problems: [{ field: 'timeZone' }] });
  });
});

describe('validateRegistration', () => {
  it('accepts a complete registration and stores the normalised e-mail', () => {
    expect(accepted({ ...valid, email: '  ANN@Example.com ' })).toEqual({
      email: 'ann@example.com',
      password: 'correct horse',
      firstName: 'Ann',
      lastName: 'Lee',
      timeZone: 'UTC',
    });
  });

  it('takes an IANA time zone in its canonical spelling, UTC when absent, and refuses anything else', () => {
    expect(accepted({ ...valid, timeZone: 'europe/london' }).timeZone).toBe('Europe/London');
    expect(accepted({ ...valid, timeZone: '  ' }).timeZone).toBe('UTC');
    for (const timeZone of ['+01:00', 'Mars/Olympus_Mons', 'Europe/../London', 'x'.repeat(80)]) {
      expect(validateRegistration({ ...valid, timeZone })).toEqual({
        ok: false,
        problems: [{ field: 'timeZone', message: 'Time zone must be an IANA name such as Europe/London' }],
      });
    }
  });

  it('keeps the password exactly as typed (spaces included, never trimmed or lower-cased)', () => {
    expect(accepted({ ...valid, password: '  Pass Word  ' }).password).toBe('  Pass Word  ');
  });

  describe('email', () => {
    it.each([undefined, null, '', '   '])('is required (%p)', (email) => {
      expect(problemsOf({ ...valid, email })).toEqual([{ field: 'email', message: 'Email is required' }]);
    });

    it.each([
      'ann',
      'ann@',
      '@example.com',
      'ann@example',
      'ann@@example.com',
      'ann@example.com..',
      '<script>alert(1)</script>@x.co',
    ])('must look like an address (%p)', (email) => {
      expect(problemsOf({ ...valid, email })).toEqual([
        { field: 'email', message: 'Email must be a valid email address' },
      ]);
    });

    it.each(['ann lee@example.com', 'ann@exa mple.com', 'ann\u200b@example.com'])(
      'names a space or an invisible character (%p)',
      (email) => {
        expect(problemsOf({ ...valid, email })).toEqual([
          { field: 'email', message: 'Email contains a space or an invisible character. Please type it again.' },
        ]);
      },
    );

    it('allows at most 254 characters, counted after trimming', () => {
      const label = 'd'.repeat(60);
      const domain = `@${label}.${label}.${label}.${'e'.repeat(254 - 4 - 3 * 61 - 4)}.com`;
      const longest = `ann${domain}`;
      expect(longest).toHaveLength(254);
      expect(accepted({ ...valid, email: `  ${longest}  ` }).email).toBe(longest);
      expect(problemsOf({ ...valid, email: `a${longest}` })).toEqual([
        { field: 'email', message: 'Email must be a valid email address' },
      ]);
    });
  });

  describe('password', () => {
    it.each([undefined, null, ''])('is required (%p)', (password) => {
      expect(problemsOf({ ...valid, password })).toEqual([{ field: 'password', message: 'Password is required' }]);
    });

    it('rejects 7 characters and accepts 8', () => {
      expect(problemsOf({ ...valid, password: 'x'.repeat(7) })).toEqual([
        { field: 'password', message: 'Password must be at least 8 characters' },
      ]);
      expect(accepted({ ...valid, password: 'x'.repeat(8) }).password).toBe('xxxxxxxx');
    });

    it('accepts 128 characters and rejects 129', () => {
      expect(accepted({ ...valid, password: 'y'.repeat(128) }).password).toHaveLength(128);
      expect(problemsOf({ ...valid, password: 'y'.repeat(129) })).toEqual([
        { field: 'password', message: 'Password must be at most 128 characters' },
      ]);
    });
  });

  describe('names', () => {
    it('are optional: missing, empty or blank names are stored as null', () => {
      for (const blank of [undefined, null, '', '   ']) {
        const value = accepted({ email: valid.email, password: valid.password, firstName: blank, lastName: blank });
        expect(value.firstName).toBeNull();
        expect(value.lastName).toBeNull();
      }
    });

    it('are trimmed', () => {
      const value = accepted({ ...valid, firstName: '  Ann  ', lastName: '\tLee ' });
      expect(value.firstName).toBe('Ann');
      expect(value.lastName).toBe('Lee');
    });

    it('allow 100 characters (after trimming) and reject 101', () => {
      const hundred = 'n'.repeat(100);
      const value = accepted({ ...valid, firstName: `  ${hundred}  `, lastName: hundred });
      expect(value.firstName).toBe(hundred);
      expect(value.lastName).toBe(hundred);

      expect(problemsOf({ ...valid, firstName: `${hundred}n` })).toEqual([
        { field: 'firstName', message: 'First name must be at most 100 characters' },
      ]);
      expect(problemsOf({ ...valid, lastName: `${hundred}n` })).toEqual([
        { field: 'lastName', message: 'Last name must be at most 100 characters' },
      ]);
    });
  });

  it('lists every problem at once, in field order', () => {
    const tooLong = 'z'.repeat(101);
    expect(problemsOf({ email: 'not-an-address', password: 'short', firstName: tooLong, lastName: tooLong })).toEqual([
      { field: 'email', message: 'Email must be a valid email address' },
      { field: 'password', message: 'Password must be at least 8 characters' },
      { field: 'firstName', message: 'First name must be at most 100 characters' },
      { field: 'lastName', message: 'Last name must be at most 100 characters' },
    ]);
    expect(problemsOf({})).toEqual([
      { field: 'email', message: 'Email is required' },
      { field: 'password', message: 'Password is required' },
    ]);
  });
});

describe('validateLogin', () => {
  it('accepts any present e-mail and password, normalising the e-mail only', () => {
    expect(validateLogin({ email: ' Ann@Example.COM ', password: ' secret ' })).toEqual({
      ok: true,
      value: { email: 'ann@example.com', password: ' secret ' },
    });
  });

  it('checks presence only, so a wrong format is just "invalid credentials" later', () => {
    // A too-short password or an odd e-mail must not reveal the registration rules at sign-in.
    expect(validateLogin({ email: 'not-an-address', password: 'x' })).toEqual({
      ok: true,
      value: { email: 'not-an-address', password: 'x' },
    });
  });

  it('refuses a password longer than any account can have, before it is hashed (it says nothing of accounts)', () => {
    expect(validateLogin({ email: 'ann@example.com', password: 'x'.repeat(129) })).toEqual({
      ok: false,
      problems: [{ field: 'password', message: 'Password must be at most 128 characters' }],
    });
    expect(validateLogin({ email: 'ann@example.com', password: 'x'.repeat(128) }).ok).toBe(true);
  });

  it('requires both, listing each missing one in field order', () => {
    expect(validateLogin({})).toEqual({
      ok: false,
      problems: [
        { field: 'email', message: 'Email is required' },
        { field: 'password', message: 'Password is required' },
      ],
    });
    expect(validateLogin({ email: '   ', password: 'secret' })).toEqual({
      ok: false,
      problems: [{ field: 'email', message: 'Email is required' }],
    });
    expect(validateLogin({ email: 'ann@example.com', password: '' })).toEqual({
      ok: false,
      problems: [{ field: 'password', message: 'Password is required' }],
    });
    expect(validateLogin({ email: 'ann@example.com', password: null })).toEqual({
      ok: false,
      problems: [{ field: 'password', message: 'Password is required' }],
    });
  });
});
