/** E-mail: the pages the app shell loads from this area (app/pages.tsx). */
export { ConfirmNewsletterPage } from './ConfirmNewsletterPage';
export { EmailPreferencesPage } from './EmailPreferencesPage';
export { StopEmailsPage } from './StopEmailsPage';
export { UnsubscribeNewsletterPage } from './UnsubscribeNewsletterPage';
export { UnsubscribePage } from './UnsubscribePage';
