/**
 * The web app manifest, built from the brand constant (served as /manifest.webmanifest by
 * vite.config.ts in dev and emitted into dist/ by the build). No DOM, no React.
 */
import { BRAND } from './brand';

export const MANIFEST_THEME_COLOUR = '#2b6e66';
export const MANIFEST_BACKGROUND_COLOUR = '#f5f8f7';

export function webManifest() {
  return {
    name: `${BRAND.name} - ${BRAND.tagline}`,
    short_name: BRAND.name,
    description: BRAND.description,
    start_url: '/',
    scope: '/',
    display: 'standalone',
    orientation: 'portrait',
    theme_color: MANIFEST_THEME_COLOUR,
    background_color: MANIFEST_BACKGROUND_COLOUR,
    categories: ['health', 'lifestyle'],
    // SVG for browsers that scale it; PNGs at the sizes install prompts and home screens ask for.
    icons: [
      { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
      { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icon-maskable.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'maskable' },
      { src: '/icon-maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
      { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  };
}
