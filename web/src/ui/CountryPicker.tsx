import { countryChoices } from '../lib/country';
import { useInteractive } from '../lib/prerendered';
import { Label } from './Label';

/**
 * "Your country": every country Haven has help for, by name, and "Somewhere else" (value null), with its label.
 * The help page, Settings and the check-in page's question.
 */
export function CountryPicker({
  id,
  value,
  onPick,
}: {
  id: string;
  value: string | null;
  onPick: (code: string | null) => void;
}) {
  const interactive = useInteractive();
  return (
    <div className="setting-row">
      <Label htmlFor={id} className="setting-row__label">
        Your country
      </Label>
      <select
        id={id}
        className="input"
        value={value ?? ''}
        disabled={!interactive}
        onChange={(event) => onPick(event.target.value || null)}
      >
        <option value="">Somewhere else</option>
        {countryChoices.map(({ code, name }) => (
          <option key={code} value={code}>
            {name}
          </option>
        ))}
      </select>
    </div>
  );
}
