import { useMemo } from 'react';
import { browserTimeZone } from '../../lib/dates';
import { crisisLinesFor, guessCrisisRegion } from './crisisLines';

/** The crisis lines, the visitor's country first (guessed in the browser). */
export function CrisisLines() {
  const lines = useMemo(() => {
    return crisisLinesFor(guessCrisisRegion(browserTimeZone(), navigator.language));
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
