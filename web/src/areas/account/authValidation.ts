/**
 * Client-side checks for the sign-in and registration forms. They mirror
 * the server's rules so the user sees the problem next to the field before a round trip.
 */
import { PASSWORD_MIN_LENGTH } from '../../constants';

export interface SignInValues {
  email: string;
  password: string;
}

export interface RegisterValues extends SignInValues {
  firstName: string;
  lastName: string;
}

export type FieldErrors<T> = Partial<Record<keyof T, string>>;

// One "@", something either side, a dot in the domain; the server has the final word.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateEmail(email: string): string | undefined {
  const value = email.trim();
  if (!value) return 'Email is required';
  if (!EMAIL_PATTERN.test(value)) return 'Please enter a valid email address';
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
  if (!values.password) errors.password = 'Password is required';
  else if (values.password.length < PASSWORD_MIN_LENGTH) {
    errors.password = `Password must be at least ${PASSWORD_MIN_LENGTH} characters`;
  }
  return errors;
}

export function hasErrors(errors: object): boolean {
  return Object.values(errors).some(Boolean);
}

/** Optional names are sent only when filled in. */
export function optionalName(value: string): string | undefined {
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}
