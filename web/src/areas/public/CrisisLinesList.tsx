import { useMemo } from 'react';
import { supportResourcesFor } from '@haven/domain/src/support-resources';
import { usePersonCountry } from '../../lib/country';

/** The crisis lines of the visitor's country (their pick, or the browser's guess); the help page has every other. */
export default function CrisisLinesList() {
  const [country] = usePersonCountry();
  const list = useMemo(() => supportResourcesFor(country), [country]);
  return (
    <ul className="crisis-lines">
      <li>
        <strong>{list.place}:</strong>{' '}
        {list.resources.map((resource) => (
          <span key={resource.name}>
            <a href={resource.href}>{resource.name}</a> — {resource.action}.{' '}
          </span>
        ))}
        {list.emergency}
      </li>
    </ul>
  );
}
