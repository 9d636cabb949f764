import { LOGOUT_URL } from '../constants';
import { forgetWaitingOnSignOut } from '../areas/checkin/waitingStore';
import { forgetSessionCopy } from '../gating/sessionCopy';
import { forgetSafetyPlanCopy } from './safetyPlanCopy';

/**
 * Full-page navigations to server routes (sign-out, OAuth). These leave the single-page
 * app on purpose: the gateway sets or clears the httpOnly session cookie and redirects back.
 */
export function navigateToServer(path: string): void {
  window.location.assign(path);
}

/**
 * Signs out of this browser: what the device keeps for the person is forgotten first, then the session. Check-ins
 * still waiting to be sent are named first, and the person may stay signed in to let them go.
 */
export function signOut(): void {
  if (!forgetWaitingOnSignOut((question) => window.confirm(question))) return;
  forgetSafetyPlanCopy();
  forgetSessionCopy();
  navigateToServer(LOGOUT_URL);
}
