/** The country whose helplines come first: one field for sign-up, Settings and the help page. */
import { crisisCountries } from '@haven/platform/src/support-resources';

export function CountryField(props: {
  id: string;
  label: string;
  /** An ISO code, or '' for the first option. */
  value: string;
  /** What '' means here: "Not now", "Somewhere else". */
  noneLabel: string;
  hint?: string;
  error?: string;
  onChange(code: string): void;
}) {
  const { id, label, value, noneLabel, hint, error, onChange } = props;
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label className="label" htmlFor={id}>
        {label}
      </label>
      {hint && (
        <span id={`${id}-hint`} className="field__hint">
          {hint}
        </span>
      )}
      <select
        id={id}
        className="input"
        value={value}
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">{noneLabel}</option>
        {crisisCountries().map(({ code, name }) => (
          <option key={code} value={code}>
            {name}
          </option>
        ))}
      </select>
      {error && (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}
