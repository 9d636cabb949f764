/** Subscription: the pages the app shell loads from this area (app/pages.tsx). */
export { SubscriptionPage } from './SubscriptionPage';
export { LocalAuthenticatePage } from './LocalAuthenticatePage';
