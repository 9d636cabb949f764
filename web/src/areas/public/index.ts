/** Public pages: the pages the app shell loads from this area (app/pages.tsx). */
import './public.css';

export { LandingPage } from './LandingPage';
export { AboutPage } from './AboutPage';
export { TermsPage } from './TermsPage';
export { PrivacyPage } from './PrivacyPage';
export { FaqPage } from './FaqPage';
