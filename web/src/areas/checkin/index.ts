/** Check-in and quotes: the pages the app shell loads from this area (app/pages.tsx). */
export { DashboardPage } from './DashboardPage';
export { SlidersPage } from './SlidersPage';
export { FavoritesPage } from './FavoritesPage';
export { ProgressPage } from './ProgressPage';
export { AnalyticsPage } from './AnalyticsPage';
export { HelpPage } from './HelpPage';
export { SafetyPlanPage } from './SafetyPlanPage';
