/**
 * The spec's full-screen loader of five bouncing dots, for LANDING_LOADER_MS from the start of the
 * navigation: index.html paints the same dots before any JavaScript, and this overlay carries them on
 * until 1.5 s have passed. The page renders beneath it (readable by assistive technology, painted at
 * once), the loader lets clicks through, shows once per page load, and is skipped when the visitor prefers
 * reduced motion. See docs/decisions.md ("The public face").
 */
import { useEffect, useState } from 'react';
import { LANDING_LOADER_MS } from './landingContent';
import { prefersReducedMotion } from './motion';

let shownThisPageLoad = false;

export function LandingLoader() {
  // What is left of the 1.5 s since the navigation started (the index.html dots showed the rest).
  const [remainingMs] = useState(() => LANDING_LOADER_MS - performance.now());
  const [visible, setVisible] = useState(() => !shownThisPageLoad && !prefersReducedMotion() && remainingMs > 0);

  useEffect(() => {
    if (!visible) return;
    shownThisPageLoad = true;
    const timer = window.setTimeout(() => setVisible(false), remainingMs);
    return () => window.clearTimeout(timer);
  }, [visible, remainingMs]);

  if (!visible) return null;
  return (
    <div
      className="landing-loader"
      data-testid="landing-loader"
      aria-hidden="true"
      // Fades out over the last 200 ms.
      style={{ animationDelay: `${Math.max(0, remainingMs - 200)}ms` }}
    >
      <div className="landing-loader__dots">
        {[0, 1, 2, 3, 4].map((dot) => (
          <span key={dot} className="landing-loader__dot" />
        ))}
      </div>
    </div>
  );
}
