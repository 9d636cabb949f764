import { NeedHelpLink } from '../areas/checkin/NeedHelpLink';
import { usePageTitle } from '../lib/usePageTitle';
import { Button } from '../ui/Button';

/**
 * Shown if rendering a page throws; offers a reload instead of a blank screen. It replaces the app's whole
 * frame, so it brings its own "Need help now?": crisis help stays one tap away even when a page breaks.
 */
export function RouteError() {
  usePageTitle('Something went wrong');
  return (
    <>
      <NeedHelpLink />
      <main className="full-page-center not-found" role="alert">
        <h1 className="not-found__title">Something went wrong</h1>
        <p className="text-muted">Please reload the page. If it keeps happening, contact support.</p>
        <Button onClick={() => window.location.reload()}>Reload</Button>
      </main>
    </>
  );
}
