import { useMemo } from 'react';
import { crisisLinesFor, guessCrisisRegion } from './crisisLines';

/** The crisis lines, the visitor's country first (guessed in the browser). */
export function CrisisLines() {
  const lines = useMemo(() => {
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return crisisLinesFor(guessCrisisRegion(timeZone, navigator.language));
  }, []);
  return (
    <ul className="crisis-lines">
      {lines.map((line) => (
        <li key={line.region}>
          <strong>{line.label}:</strong> {line.text}
        </li>
      ))}
    </ul>
  );
}
