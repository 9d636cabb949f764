import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { createAccessExpiryHandler } from './gating/accessExpiry';
import { router } from './app/router';
import { createApolloClient } from './graphql/client';
import { registerServiceWorker } from './serviceWorker';
import './styles/tokens.css';
import './styles/base.css';
import './styles/components.css';
import './styles/layout.css';
import './styles/checkin.css';

const client = createApolloClient({
  onAccessDenied: createAccessExpiryHandler({ navigate: (path) => router.navigate(path) }),
});

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <App client={client} />
  </StrictMode>,
);

if (import.meta.env.PROD) registerServiceWorker();
