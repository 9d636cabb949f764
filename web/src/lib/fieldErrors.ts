/** Messages beside a form's fields (lib/useForm.ts). Pure, and free of imports: the landing page loads it. */

/** A message beside each field that has a problem. */
export type FieldErrors<T> = Partial<Record<keyof T & string, string>>;

export function hasErrors(errors: object): boolean {
  return Object.values(errors).some(Boolean);
}
