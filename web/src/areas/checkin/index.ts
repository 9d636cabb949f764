/** Check-in and quotes: the pages the app shell loads from this area (app/pages.tsx). */
export { DashboardPage } from './DashboardPage';
export { SlidersPage } from './SlidersPage';
export { FavoritesPage } from './FavoritesPage';
export { ProgressPage } from './ProgressPage';
export { AnalyticsPage } from './AnalyticsPage';
export { SafetyPlanPage } from './SafetyPlanPage';
// The help page is its own bundle (visitors load nothing else); fetched as soon as this area is, so a person in
// crisis who has lost their connection reaches it from a reply without a bundle left to fetch.
void import('./HelpPage');
