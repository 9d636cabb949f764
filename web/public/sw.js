/*
 * Haven service worker: keeps the app shell (index.html, every hashed JS/CSS bundle, the
 * icons) so the app starts offline or on a flaky network. It never handles /api or
 * /graphql (live, personal data and auth redirects always go to the network) and never
 * anything cross-origin (e.g. the payment provider).
 */
const CACHE = 'app-shell-v2';
const SHELL_URL = '/index.html';
const BUNDLE_LIST_URL = '/app-shell.json';
const STATIC_FILES = [
  '/',
  SHELL_URL,
  '/manifest.webmanifest',
  '/icon.svg',
  '/icon-maskable.svg',
  '/icon-192.png',
  '/icon-512.png',
  '/icon-maskable-192.png',
  '/icon-maskable-512.png',
  '/apple-touch-icon.png',
];

function isBypassed(url) {
  return (
    url.origin !== self.location.origin ||
    url.pathname === '/graphql' ||
    url.pathname.startsWith('/graphql/') ||
    url.pathname === '/api' ||
    url.pathname.startsWith('/api/') ||
    url.pathname === '/sw.js'
  );
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll(STATIC_FILES);
      // Every bundle of this build, the lazily loaded areas too (listed by vite.config.ts).
      const bundles = await (await fetch(BUNDLE_LIST_URL, { cache: 'no-cache' })).json();
      await cache.addAll(bundles);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const keys = await caches.keys();
      await Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key)));
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (isBypassed(url)) return;

  // Page loads: network first (fresh deploys win), the cached shell when offline. A prerendered page (the gateway
  // marks it) is one page's HTML, not the shell, so it is never kept as the shell; nor is a shell marked for a
  // browser with no cookie choice yet (gateway/src/web.ts), which would still say so after the person chose.
  if (request.mode === 'navigate') {
    event.respondWith(
      (async () => {
        try {
          const response = await fetch(request);
          const isShell =
            response.ok &&
            (response.headers.get('content-type') || '').includes('text/html') &&
            !response.headers.has('x-haven-prerendered') &&
            !response.headers.has('x-haven-no-cookie-choice');
          if (isShell) {
            const cache = await caches.open(CACHE);
            await cache.put(SHELL_URL, response.clone());
          }
          return response;
        } catch (error) {
          const cached = await caches.match(SHELL_URL);
          if (cached) return cached;
          throw error;
        }
      })(),
    );
    return;
  }

  // Hashed bundles never change: cache first. Other static files: cache, refreshed in the background.
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      const cached = await cache.match(request);
      const network = fetch(request).then(async (response) => {
        if (response.ok && response.type === 'basic') await cache.put(request, response.clone());
        return response;
      });
      if (cached) {
        if (!url.pathname.startsWith('/assets/')) event.waitUntil(network.catch(() => undefined));
        return cached;
      }
      return network;
    })(),
  );
});
