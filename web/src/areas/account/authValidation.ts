/**
 * Client-side checks for the account forms (sign-in, registration, Settings, password reset). They mirror
 * the server's rules so the user sees the problem next to the field before a round trip.
 */
import { invalidEmailMessage } from '@haven/domain/src/field-messages';
import { PASSWORD_MIN_LENGTH } from '../../constants';
import type { FieldErrors } from '../../lib/fieldErrors';

export { hasErrors, type FieldErrors } from '../../lib/fieldErrors';

export type SignInValues = {
  email: string;
  password: string;
};

export type RegisterValues = SignInValues & {
  firstName: string;
  lastName: string;
};

// One "@", something either side, a dot in the domain; the server has the final word.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Only that an address is there (the forms where the server alone judges its shape). */
export function emailRequired(email: string): string | undefined {
  return email.trim() === '' ? 'Email is required' : undefined;
}

export function validateEmail(email: string): string | undefined {
  const value = email.trim();
  const missing = emailRequired(value);
  if (missing) return missing;
  if (!EMAIL_PATTERN.test(value)) return invalidEmailMessage;
  return undefined;
}

export function validateSignIn(values: SignInValues): FieldErrors<SignInValues> {
  const errors: FieldErrors<SignInValues> = {};
  const email = validateEmail(values.email);
  if (email) errors.email = email;
  if (!values.password) errors.password = 'Password is required';
  return errors;
}

export function validateRegistration(values: RegisterValues): FieldErrors<RegisterValues> {
  const errors: FieldErrors<RegisterValues> = {};
  const email = validateEmail(values.email);
  if (email) errors.email = email;
  const password = values.password ? newPasswordProblem(values.password) : 'Password is required';
  if (password) errors.password = password;
  return errors;
}

/** A new password (registration, change, reset) shorter than the server accepts. */
export function newPasswordProblem(password: string): string | undefined {
  return password.length < PASSWORD_MIN_LENGTH
    ? `Password must be at least ${PASSWORD_MIN_LENGTH} characters`
    : undefined;
}

/** Optional names are sent only when filled in. */
export function optionalName(value: string): string | undefined {
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}
