/**
 * Registers public/sw.js (production builds only; see main.tsx). The worker caches the
 * app shell for offline starts and never touches /api or /graphql.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch((error: unknown) => {
      console.warn('Service worker registration failed', error);
    });
  });
}
