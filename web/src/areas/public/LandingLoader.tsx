/**
 * The full-screen loader of five bouncing dots, for LANDING_LOADER_MS from the start of the
 * navigation: index.html paints the same dots before any JavaScript, and this overlay carries them on
 * until 1.5 s have passed. The page renders beneath it (readable by assistive technology, painted at
 * once), the loader lets clicks through, shows once per page load, and is skipped when the visitor prefers
 * reduced motion. See docs/decisions/public-pages-and-web/landing-loader.md.
 */
import { useLayoutEffect, useState } from 'react';
import { rendersAsPrerendered } from '../../lib/prerendered';
import { LANDING_LOADER_MS } from './landingContent';
import { prefersReducedMotion } from './motion';

let shownThisPageLoad = false;

/** The fade takes the loader's last 200 ms. */
const FADE_MS = 200;

/**
 * What is left of the 1.5 s since the navigation started (the index.html dots showed the rest), or 0 when the
 * loader should not show at all.
 */
function remainingLoaderMs(): number {
  if (shownThisPageLoad || prefersReducedMotion()) return 0;
  return Math.max(0, LANDING_LOADER_MS - performance.now());
}

export function LandingLoader() {
  // Prerendered HTML carries the loader with the stylesheet's timing (it fades by itself, script or none), and
  // the first render matches it; the browser's own clock decides after that.
  const [remainingMs] = useState(() => (rendersAsPrerendered() && !shownThisPageLoad ? null : remainingLoaderMs()));
  const [visible, setVisible] = useState(remainingMs !== 0);

  // Before the paint: a page reached after the 1.5 s never flashes the loader.
  useLayoutEffect(() => {
    if (!visible) return;
    const left = remainingLoaderMs();
    shownThisPageLoad = true;
    const timer = window.setTimeout(() => setVisible(false), left);
    return () => window.clearTimeout(timer);
  }, [visible]);

  if (!visible) return null;
  return (
    <div
      className="landing-loader"
      data-testid="landing-loader"
      aria-hidden="true"
      style={remainingMs === null ? undefined : { animationDelay: `${Math.max(0, remainingMs - FADE_MS)}ms` }}
    >
      <div className="landing-loader__dots">
        {[0, 1, 2, 3, 4].map((dot) => (
          <span key={dot} className="landing-loader__dot" />
        ))}
      </div>
    </div>
  );
}
