/**
 * The crisis lines of the visitor's country (CrisisLinesList.tsx), with the crisis-lines dataset loaded beside the
 * page rather than before it: the prerendered lines are plain links that work with no script at all, so the page
 * is usable first and React adopts the list when its code arrives (then showing the visitor's own country).
 */
import { lazy, Suspense } from 'react';
import { loadOrReload } from '../../lib/bundles';

const CrisisLinesList = lazy(loadOrReload(() => import('./CrisisLinesList')));

export function CrisisLines() {
  return (
    <Suspense fallback={<ul className="crisis-lines" />}>
      <CrisisLinesList />
    </Suspense>
  );
}
