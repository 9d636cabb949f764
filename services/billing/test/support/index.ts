/**
 * Billing's test support: what other tests, in this service and outside it, use to drive billing and read back
 * what it stored. Import from here, not from the files beside it.
 */
export { advanceBillingClock } from './clock';
export { entitlementCopy, eventTypes, storedSubscription, subscriptionStatus } from './records';
