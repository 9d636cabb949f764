/** Pure rules for account input: validation and normalisation, no I/O. */

export const passwordMinLength = 8;
// Bounds the cost of hashing an attacker-chosen password.
export const passwordMaxLength = 128;
export const nameMaxLength = 100;
const emailMaxLength = 254;
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface FieldProblem {
  field: string;
  message: string;
}

export interface RegistrationInput {
  email?: string | null;
  password?: string | null;
  firstName?: string | null;
  lastName?: string | null;
}

export interface Registration {
  email: string;
  password: string;
  firstName: string | null;
  lastName: string | null;
}

/** Trimmed and lower-cased, so one address is one account however it is typed. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function emailProblem(raw: string | null | undefined): FieldProblem | null {
  const email = normalizeEmail(raw ?? '');
  if (!email) return { field: 'email', message: 'Email is required' };
  if (email.length > emailMaxLength || !emailPattern.test(email)) {
    return { field: 'email', message: 'Email must be a valid email address' };
  }
  return null;
}

function optionalName(raw: string | null | undefined): string | null {
  const name = (raw ?? '').trim();
  return name === '' ? null : name;
}

export type Validated<T> = { ok: true; value: T } | { ok: false; problems: FieldProblem[] };

export function validateRegistration(input: RegistrationInput): Validated<Registration> {
  const problems: FieldProblem[] = [];
  const email = emailProblem(input.email);
  if (email) problems.push(email);

  const password = input.password ?? '';
  if (password === '') problems.push({ field: 'password', message: 'Password is required' });
  else if (password.length < passwordMinLength) {
    problems.push({ field: 'password', message: `Password must be at least ${passwordMinLength} characters` });
  } else if (password.length > passwordMaxLength) {
    problems.push({ field: 'password', message: `Password must be at most ${passwordMaxLength} characters` });
  }

  const firstName = optionalName(input.firstName);
  const lastName = optionalName(input.lastName);
  if (firstName && firstName.length > nameMaxLength) {
    problems.push({ field: 'firstName', message: `First name must be at most ${nameMaxLength} characters` });
  }
  if (lastName && lastName.length > nameMaxLength) {
    problems.push({ field: 'lastName', message: `Last name must be at most ${nameMaxLength} characters` });
  }

  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: { email: normalizeEmail(input.email ?? ''), password, firstName, lastName } };
}

export interface LoginInput {
  email?: string | null;
  password?: string | null;
}

/** Sign-in checks only presence; anything else is "Invalid email or password". */
export function validateLogin(input: LoginInput): Validated<{ email: string; password: string }> {
  const problems: FieldProblem[] = [];
  const email = normalizeEmail(input.email ?? '');
  if (!email) problems.push({ field: 'email', message: 'Email is required' });
  if (!input.password) problems.push({ field: 'password', message: 'Password is required' });
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: { email, password: input.password ?? '' } };
}
