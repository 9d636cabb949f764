import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/App';
import { startSessionProbe } from './gating/sessionProbeClient';
import { BRAND } from './brand';
import { forgetPrerenderedHead, markInlinedStylesheets, rendersAsPrerendered } from './lib/prerendered';
import { registerServiceWorker } from './serviceWorker';
import './styles/tokens.css';
import './styles/base.css';
import './styles/components.css';
import './styles/layout.css';
import './styles/checkin.css';

// Who is signed in is asked at once, while the page's bundles are still loading.
startSessionProbe();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
// A prerendered page (prerender/entry.tsx) is adopted as it is; elsewhere the app replaces the boot loader.
if (rendersAsPrerendered()) {
  forgetPrerenderedHead(document, BRAND.description);
  markInlinedStylesheets(container);
  // As a transition, React adopts the page in slices that yield to the browser between them, instead of one long
  // task that holds off taps and scrolling on a slow phone; the page is already drawn, so nothing shows differently.
  startTransition(() => {
    hydrateRoot(container, app);
  });
} else {
  createRoot(container).render(app);
}

if (import.meta.env.PROD) registerServiceWorker();
