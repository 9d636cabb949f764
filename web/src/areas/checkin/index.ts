/** Check-in and quotes: the pages the app shell loads from this area (app/pages.tsx). */
export { DashboardPage } from './DashboardPage';
