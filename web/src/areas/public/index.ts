/** Public pages: the pages the app shell loads from this area (app/pages.tsx). */
export { LandingPage } from './LandingPage';
