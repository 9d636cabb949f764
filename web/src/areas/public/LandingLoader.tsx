/**
 * The spec's full-screen loader of five bouncing dots, shown for LANDING_LOADER_MS over the landing page.
 * The page renders beneath it from the first frame (it is readable by assistive technology and the
 * browser paints it at once), the loader lets clicks through, shows once per page load, and is skipped
 * when the visitor prefers reduced motion. See docs/decisions.md ("issue 13").
 */
import { useEffect, useState } from 'react';
import { LANDING_LOADER_MS } from './landingContent';
import { prefersReducedMotion } from './motion';

let shownThisPageLoad = false;

export function LandingLoader() {
  const [visible, setVisible] = useState(() => !shownThisPageLoad && !prefersReducedMotion());

  useEffect(() => {
    if (!visible) return;
    shownThisPageLoad = true;
    const timer = window.setTimeout(() => setVisible(false), LANDING_LOADER_MS);
    return () => window.clearTimeout(timer);
  }, [visible]);

  if (!visible) return null;
  return (
    <div className="landing-loader" data-testid="landing-loader" aria-hidden="true">
      <div className="landing-loader__dots">
        {[0, 1, 2, 3, 4].map((dot) => (
          <span key={dot} className="landing-loader__dot" />
        ))}
      </div>
    </div>
  );
}
