/**
 * Business and UI constants: prices, durations and limits a person sees.
 * Kept in one file so a reviewer finds each of them in one place.
 */

// ── Toasts ─────────────────────────────────────────────────────
/** At most this many toasts are shown at a time. */
export const TOAST_LIMIT = 1;
/** Default display time of a toast. */
export const TOAST_DEFAULT_DURATION_MS = 5000;
/** Toasts are swiped away to the right… */
export const TOAST_SWIPE_DIRECTION = 'right' as const;
/** …once the swipe passes this distance. */
export const TOAST_SWIPE_THRESHOLD_PX = 50;
/** A dismissed toast stays in the store this long before it is removed. */
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
/** The toast region takes focus with this key (Radix default). */
export const TOAST_VIEWPORT_HOTKEY: string[] = ['F8'];

// ── Tooltips ───────────────────────────────────────────────────
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

// ── Access expiry ──────────────────────────────────────
/** How long the "Trial Expired" / "Access Expired" notice is shown. */
export const ACCESS_EXPIRED_TOAST_MS = 5000;
/** Delay before the user is sent to /auth after access expired. */
export const ACCESS_EXPIRED_REDIRECT_MS = 2000;

// ── Auth ───────────────────────────────────────────────
export const PASSWORD_MIN_LENGTH = 8;
/** Delay between a successful sign-in and the navigation to /. */
export const LOGIN_REDIRECT_DELAY_MS = 100;

// ── Subscription ───────────────────────────────────────────
export const TRIAL_DAYS = 3;
export const PREMIUM_PRICE_GBP = 4.99;
/** The price as shown to the user. */
export const PREMIUM_PRICE_LABEL = '£4.99';

// ── Server routes the browser navigates to ─────────────────────
export const GRAPHQL_PATH = '/graphql';
export const LOGOUT_URL = '/api/logout';
export const GOOGLE_SIGN_IN_URL = '/api/auth/google';
export const HOSTED_SIGN_IN_URL = '/api/login';

// ── E-mail verification ────────────────────────────────────────
/** After a link verified the address, the page goes to / after this long. */
export const VERIFY_EMAIL_REDIRECT_MS = 3000;

// ── Data rights ────────────────────────────────────────────────
/** After the account is deleted, the app goes to / after this long. */
export const ACCOUNT_DELETED_REDIRECT_MS = 2000;
