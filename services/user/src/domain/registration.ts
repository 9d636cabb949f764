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
  timeZone?: string | null;
}

export interface Registration {
  email: string;
  password: string;
  firstName: string | null;
  lastName: string | null;
  timeZone: string;
}

/** Where a user is when the browser does not say: check-in "today" and weekly e-mails count in UTC. */
export const defaultTimeZone = 'UTC';

/**
 * An IANA time zone name ("Europe/London", "UTC"), in its canonical spelling; null for anything else
 * (offsets like "+01:00" and abbreviations like "BST" are not names other services can rely on).
 */
export function canonicalTimeZone(raw: string): string | null {
  const name = raw.trim();
  if (name.length > 64 || !/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** The password rules of registration, also for a new password (change, reset). */
export function passwordProblem(field: string, password: string | null | undefined): FieldProblem | null {
  const value = password ?? '';
  if (value === '') return { field, message: 'Password is required' };
  if (value.length < passwordMinLength) {
    return { field, message: `Password must be at least ${passwordMinLength} characters` };
  }
  if (value.length > passwordMaxLength) {
    return { field, message: `Password must be at most ${passwordMaxLength} characters` };
  }
  return null;
}

/**
 * A password typed to prove who someone is (sign-in, linking a provider, the current password): longer than
 * any password Haven accepts, it cannot be right, and is refused before it is hashed.
 */
export function presentedPasswordTooLong(field: string, password: string | null | undefined): FieldProblem | null {
  return (password ?? '').length > passwordMaxLength
    ? { field, message: `Password must be at most ${passwordMaxLength} characters` }
    : null;
}

/** An optional time zone: absent is the default; present must be a name. */
function timeZoneOf(raw: string | null | undefined, problems: FieldProblem[]): string {
  if (raw === null || raw === undefined || raw.trim() === '') return defaultTimeZone;
  const zone = canonicalTimeZone(raw);
  if (!zone) problems.push({ field: 'timeZone', message: 'Time zone must be an IANA name such as Europe/London' });
  return zone ?? defaultTimeZone;
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
  const badPassword = passwordProblem('password', password);
  if (badPassword) problems.push(badPassword);

  const firstName = optionalName(input.firstName);
  const lastName = optionalName(input.lastName);
  if (firstName && firstName.length > nameMaxLength) {
    problems.push({ field: 'firstName', message: `First name must be at most ${nameMaxLength} characters` });
  }
  if (lastName && lastName.length > nameMaxLength) {
    problems.push({ field: 'lastName', message: `Last name must be at most ${nameMaxLength} characters` });
  }

  const timeZone = timeZoneOf(input.timeZone, problems);

  if (problems.length > 0) return { ok: false, problems };
  if (!email.ok) return { ok: false, problems };
  return { ok: true, value: { email: email.address, password, firstName, lastName, timeZone } };
}

export interface ProfileInput {
  firstName?: string | null;
  lastName?: string | null;
  timeZone?: string | null;
}

/** Only the fields given change; an empty name clears it; a time zone, when given, must be a name. */
export function validateProfile(
  input: ProfileInput,
): Validated<{ firstName?: string | null; lastName?: string | null; timeZone?: string }> {
  const problems: FieldProblem[] = [];
  const value: { firstName?: string | null; lastName?: string | null; timeZone?: string } = {};
  for (const [field, label] of [
    ['firstName', 'First name'],
    ['lastName', 'Last name'],
  ] as const) {
    if (input[field] === undefined) continue;
    const name = optionalName(input[field]);
    if (name && name.length > nameMaxLength) {
      problems.push({ field, message: `${label} must be at most ${nameMaxLength} characters` });
    }
    value[field] = name;
  }
  if (input.timeZone !== undefined && input.timeZone !== null) {
    const zone = canonicalTimeZone(input.timeZone);
    if (!zone) problems.push({ field: 'timeZone', message: 'Time zone must be an IANA name such as Europe/London' });
    else value.timeZone = zone;
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value };
}

export interface LoginInput {
  email?: string | null;
  password?: string | null;
}

/**
 * Sign-in checks only presence and the password's length; anything else is "Invalid email or password". The address is looked up
 * in its canonical form; one that could never have signed up is looked up as typed and matches nothing.
 */
export function validateLogin(input: LoginInput): Validated<{ email: string; password: string }> {
  const problems: FieldProblem[] = [];
  const typed = (input.email ?? '').trim();
  if (!typed) problems.push({ field: 'email', message: 'Email is required' });
  if (!input.password) problems.push({ field: 'password', message: 'Password is required' });
  const tooLong = presentedPasswordTooLong('password', input.password);
  if (tooLong) problems.push(tooLong);
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: { email: normalizeEmail(typed) ?? typed, password: input.password ?? '' } };
}
