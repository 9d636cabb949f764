import type { InputHTMLAttributes } from 'react';
import { Input } from './Input';
import { Label } from './Label';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  id: string;
  label: string;
  /** Shown under the field and announced with it. */
  error?: string;
  /** Shown under the label, e.g. "Optional". */
  hint?: string;
}

/** Label + input + inline error, wired together for assistive technology. */
export function TextField({ id, label, error, hint, ...inputProps }: TextFieldProps) {
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint && hintId, error && errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <Label htmlFor={id}>{label}</Label>
      {hint && (
        <span id={hintId} className="field__hint">
          {hint}
        </span>
      )}
      <Input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...inputProps} />
      {error && (
        <p id={errorId} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}
