/**
 * The browser's cookie choice as the server knows it, shared by the banner (every page) and the Settings
 * card. Plain `fetch` against the REST routes, no Apollo: the banner is on the public pages, which keep
 * Apollo Client off their path (app/AppRoutes.tsx). Failures are logged only: consent never blocks a page.
 *
 * A page the gateway served to a browser with neither a session nor a consent cookie carries a mark saying the
 * server has no choice for it (gateway/src/pages.ts, `withNoCookieChoiceMark`): the page's first check then takes
 * that as the server's 404 without asking, since the browser logs every 404 as an error in its console.
 */
import { useSyncExternalStore } from 'react';
import type { CookieChoice, StoredConsent } from './consentRules';
import { NO_COOKIE_CHOICE_ATTRIBUTE } from '@haven/platform/src/prerendered-pages';

export interface GdprConfig {
  gdprEnabled: boolean;
  cookieBannerEnabled: boolean;
  enhancedConsentEnabled: boolean;
}

export type ConsentState =
  { status: 'loading' } | { status: 'ready'; config: GdprConfig; consent: StoredConsent | null } | { status: 'failed' };

const CONFIG_URL = '/api/gdpr/config';
const CONSENT_URL = '/api/gdpr/cookie-consent';

let state: ConsentState = { status: 'loading' };
let loading: Promise<ConsentState> | null = null;
/** Grows each time someone asks to change the choice (Settings): the banner opens its detailed view. */
let customiseRequests = 0;
const listeners = new Set<() => void>();

function publish(next: ConsentState): ConsentState {
  state = next;
  for (const listener of listeners) listener();
  return next;
}

/** A request's error: the status, a colon and a space, then the body (or the status text). */
async function requestFailure(response: Response): Promise<Error> {
  const text = await response.text().catch(() => '');
  return new Error(`${response.status}: ${text || response.statusText}`);
}

/** Whether this page load began with the gateway's word that the server holds no choice for this browser. */
function pageSaysNoChoice(): boolean {
  return typeof document !== 'undefined' && document.documentElement.hasAttribute(NO_COOKIE_CHOICE_ATTRIBUTE);
}

async function request(askForChoice: boolean): Promise<ConsentState> {
  try {
    const configResponse = await fetch(CONFIG_URL, { credentials: 'include', headers: { accept: 'application/json' } });
    if (!configResponse.ok) throw await requestFailure(configResponse);
    const config = (await configResponse.json()) as GdprConfig;
    if (!askForChoice) return publish({ status: 'ready', config, consent: null });
    const consentResponse = await fetch(CONSENT_URL, {
      credentials: 'include',
      headers: { accept: 'application/json' },
    });
    if (consentResponse.status === 404) return publish({ status: 'ready', config, consent: null });
    if (!consentResponse.ok) throw await requestFailure(consentResponse);
    return publish({ status: 'ready', config, consent: (await consentResponse.json()) as StoredConsent });
  } catch (error) {
    console.error('Cookie consent check failed', error);
    return publish({ status: 'failed' });
  }
}

/**
 * Asks the server once per page load, unless the page says it has no choice for this browser; `fresh` asks again
 * whatever the page said (Settings, after a sign-in moved the choice).
 */
export function loadConsent({ fresh = false }: { fresh?: boolean } = {}): Promise<ConsentState> {
  if (!loading || fresh) loading = request(fresh || !pageSaysNoChoice());
  return loading;
}

/** Saves the choice; the promise rejects (after logging) when the server refuses or cannot be reached. */
export async function saveConsent(choice: CookieChoice): Promise<StoredConsent> {
  try {
    const response = await fetch(CONSENT_URL, {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(choice),
    });
    if (!response.ok) throw await requestFailure(response);
    const saved = (await response.json()) as StoredConsent;
    if (state.status === 'ready') publish({ ...state, consent: saved });
    return saved;
  } catch (error) {
    console.error('Saving the cookie choice failed', error);
    throw error;
  }
}

/** Opens the banner's detailed view (the Settings card's "Change cookie settings"). */
export function openCookieSettings(): void {
  customiseRequests += 1;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// Each snapshot is also the server's: the build's prerender renders the store as it starts.
export function useConsentState(): ConsentState {
  const snapshot = () => state;
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/** How many times the detailed view was asked for (the banner opens when it grows). */
export function useCustomiseRequests(): number {
  const snapshot = () => customiseRequests;
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
