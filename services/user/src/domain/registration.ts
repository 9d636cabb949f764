/** Pure rules for account input: validation and normalisation, no I/O. */
import { canonicalEmail } from '@haven/platform';

export const passwordMinLength = 8;
// Bounds the cost of hashing an attacker-chosen password.
export const passwordMaxLength = 128;
export const nameMaxLength = 100;

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

/**
 * The canonical address (see canonicalEmail in the platform): one mailbox, one spelling, one account.
 * Null when the address is not one a mail server would accept.
 */
export function normalizeEmail(email: string): string | null {
  const result = canonicalEmail(email);
  return result.ok ? result.address : null;
}

function optionalName(raw: string | null | undefined): string | null {
  const name = (raw ?? '').trim();
  return name === '' ? null : name;
}

export type Validated<T> = { ok: true; value: T } | { ok: false; problems: FieldProblem[] };

export function validateRegistration(input: RegistrationInput): Validated<Registration> {
  const problems: FieldProblem[] = [];
  const email = canonicalEmail(input.email);
  if (!email.ok) problems.push({ field: 'email', message: email.message });

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
  if (!email.ok) return { ok: false, problems };
  return { ok: true, value: { email: email.address, password, firstName, lastName } };
}

export interface LoginInput {
  email?: string | null;
  password?: string | null;
}

/**
 * Sign-in checks only presence; anything else is "Invalid email or password". The address is looked up
 * in its canonical form; one that could never have signed up is looked up as typed and matches nothing.
 */
export function validateLogin(input: LoginInput): Validated<{ email: string; password: string }> {
  const problems: FieldProblem[] = [];
  const typed = (input.email ?? '').trim();
  if (!typed) problems.push({ field: 'email', message: 'Email is required' });
  if (!input.password) problems.push({ field: 'password', message: 'Password is required' });
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: { email: normalizeEmail(typed) ?? typed, password: input.password ?? '' } };
}
