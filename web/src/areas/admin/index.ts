/** Admin: the pages the app shell loads from this area (app/pages.tsx). */
export { AdminNewsletterPage } from './AdminNewsletterPage';
export { AdminUsersPage } from './AdminUsersPage';
