import { usePageTitle } from '../lib/usePageTitle';
import { Button } from '../ui/Button';

/** Shown if rendering a page throws; offers a reload instead of a blank screen. */
export function RouteError() {
  usePageTitle('Something went wrong');
  return (
    <main className="full-page-center not-found" role="alert">
      <h1 className="not-found__title">Something went wrong</h1>
      <p className="text-muted">Please reload the page. If it keeps happening, contact support.</p>
      <Button onClick={() => window.location.reload()}>Reload</Button>
    </main>
  );
}
