/**
 * The app's code arrives in bundles, each loaded the first time a page needs it. When one fails to arrive (the
 * network dropped for a moment, or a new release replaced it), the page reloads itself instead of showing an
 * error: at most twice a minute, and never while the browser says it is offline, so a page that truly cannot
 * load still says so (app/RouteError.tsx) rather than reloading for ever.
 */

/** Reloads allowed in any minute before a failed bundle is shown as an error. */
export const BUNDLE_RELOADS_PER_MINUTE = 2;
/** A moment for the network to settle before the reload asks for every bundle again. */
export const BUNDLE_RELOAD_DELAY_MS = 1000;
const MINUTE_MS = 60_000;
/** The times of this tab's recent reloads, kept in sessionStorage so they survive the reload itself. */
const RELOADS_KEY = 'haven:bundle-reloads';

/** The reloads still inside the last minute, if one more is allowed; null when it is not. */
export function reloadsWithOneMore(earlier: readonly number[], now: number): number[] | null {
  const recent = earlier.filter((at) => now - at < MINUTE_MS && at <= now);
  return recent.length < BUNDLE_RELOADS_PER_MINUTE ? [...recent, now] : null;
}

function readReloads(storage: Storage): number[] {
  try {
    const stored: unknown = JSON.parse(storage.getItem(RELOADS_KEY) ?? '[]');
    return Array.isArray(stored) ? stored.filter((at): at is number => typeof at === 'number') : [];
  } catch {
    return [];
  }
}

/** Records a reload and starts it, or says no (offline, storage unavailable, or too many reloads). */
function startReload(): boolean {
  if (!navigator.onLine) return false;
  try {
    const reloads = reloadsWithOneMore(readReloads(sessionStorage), Date.now());
    if (!reloads) return false;
    sessionStorage.setItem(RELOADS_KEY, JSON.stringify(reloads));
  } catch {
    // Without storage a reload loop could not be stopped, so the error is shown instead.
    return false;
  }
  window.setTimeout(() => window.location.reload(), BUNDLE_RELOAD_DELAY_MS);
  return true;
}

/** `load` (a dynamic import), but a failed download reloads the page when it may; otherwise the error stands. */
export function loadOrReload<Bundle>(load: () => Promise<Bundle>): () => Promise<Bundle> {
  return () =>
    load().catch((error: unknown) => {
      // While the page reloads, the part that asked for the bundle keeps showing its loading state.
      if (startReload()) return new Promise<Bundle>(() => {});
      throw error;
    });
}
