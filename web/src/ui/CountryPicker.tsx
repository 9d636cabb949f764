import { countryChoices } from '../lib/country';

/** Every country Haven has help for, by name, and "Somewhere else" (value null): the help page and Settings. */
export function CountryPicker({
  id,
  value,
  onPick,
}: {
  id: string;
  value: string | null;
  onPick: (code: string | null) => void;
}) {
  return (
    <select id={id} className="input" value={value ?? ''} onChange={(event) => onPick(event.target.value || null)}>
      <option value="">Somewhere else</option>
      {countryChoices.map(({ code, name }) => (
        <option key={code} value={code}>
          {name}
        </option>
      ))}
    </select>
  );
}
