/**
 * A form's failure when the server refuses it (lib/useForm.ts's `failed`): the refusals beside the fields they name,
 * and a toast with the server's own words. Kept apart from the hook: a form that never reaches the GraphQL API (the
 * newsletter sign-up on the landing page) does not load the error reader.
 */
import { fieldErrors, serverMessage } from '../graphql/errors';
import { toast } from '../ui/toastStore';
import type { FieldErrors } from './fieldErrors';

/**
 * The server's refusals beside the form's own fields: a BAD_USER_INPUT error names its field in
 * `extensions.field`, as the input's path (`input.email`) or the argument (`email`). Fields the form does not have
 * are left out.
 */
export function serverFieldErrors<T>(error: unknown, fields: readonly (keyof T & string)[]): FieldErrors<T> {
  const out: FieldErrors<T> = {};
  for (const [path, message] of Object.entries(fieldErrors(error))) {
    const name = path.split('.').pop() as keyof T & string;
    if (fields.includes(name) && !out[name]) out[name] = message;
  }
  return out;
}

/** The destructive toast of a failure: the server's message, or the fallback when it sent none (offline). */
export function toastRefusal(title: string, error: unknown, fallback: string): void {
  toast({ title, description: serverMessage(error) ?? fallback, variant: 'destructive' });
}

/** The usual `failed`: the toast, and the server's refusals beside the fields it names. */
export function refused<T extends Record<string, unknown>>(text: { title: string; fallback: string }) {
  return (error: unknown, values: T): FieldErrors<T> => {
    toastRefusal(text.title, error, text.fallback);
    return serverFieldErrors<T>(error, Object.keys(values) as (keyof T & string)[]);
  };
}
