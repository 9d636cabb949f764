/** Crisis lines as one-tap links: the public pages, the help page and the crisis reply show them alike. */
import { useMemo } from 'react';
import { supportResourcesFor, type SupportResources } from '@haven/platform/src/support-resources';
import { visitorCountry } from './crisisHelp';

/** One list's lines as links, then what to call when life is in danger. */
export function HelpLines({ list }: { list: Pick<SupportResources, 'resources' | 'emergency'> }) {
  return (
    <>
      {list.resources.map((resource) => (
        <a key={resource.name} href={resource.href} className="help-line">
          <strong>{resource.name}</strong> — {resource.action}
        </a>
      ))}
      <p>{list.emergency}</p>
    </>
  );
}

/** The visitor's own country's lines (or the directory), for the public pages' "need help" sections. */
export function CrisisLines() {
  const list = useMemo(() => supportResourcesFor(visitorCountry()), []);
  return (
    <div className="crisis-lines">
      <HelpLines list={list} />
    </div>
  );
}
