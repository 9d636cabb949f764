import { LOGOUT_URL } from '../constants';
import { forgetSafetyPlanCopy } from './safetyPlanCopy';

/**
 * Full-page navigations to server routes (sign-out, OAuth). These leave the single-page
 * app on purpose: the gateway sets or clears the httpOnly session cookie and redirects back.
 */
export function navigateToServer(path: string): void {
  window.location.assign(path);
}

/** Signs out of this browser: what the device keeps for the person is forgotten first, then the session. */
export function signOut(): void {
  forgetSafetyPlanCopy();
  navigateToServer(LOGOUT_URL);
}
