import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/App';
import { startSessionProbe } from './gating/sessionProbeClient';
import { BRAND } from './brand';
import { forgetPrerenderedHead, rendersAsPrerendered } from './lib/prerendered';
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
  hydrateRoot(container, app);
} else {
  createRoot(container).render(app);
}

if (import.meta.env.PROD) registerServiceWorker();
