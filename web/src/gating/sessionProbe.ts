/**
 * The first session check, without Apollo Client: one plain `fetch` of the same `Me` query that
 * `useSession()` runs, started as the app boots. The public pages (landing, About, Terms, Privacy, FAQ)
 * decide and render from it alone, so Apollo's bundle stays off their critical path; the first page
 * that needs Apollo seeds Apollo's cache with this answer (app/ApolloRoutes.tsx), so nobody asks twice.
 * Pure parts here; the query text and the hook are in sessionProbeClient.ts.
 */
import type { MeQuery } from '../graphql/operations.generated';
import type { SessionState } from './routeGating';

export type ProbeResult =
  | { status: 'loading' }
  /**
   * `data` is what Apollo would have cached for `Me` (with `__typename`s); null when `me` failed. `unanswered`:
   * no answer came at all (the device offline).
   */
  | { status: 'done'; data: MeQuery | null; unanswered?: boolean };

/**
 * Adds `__typename` to every selection set below the operation, as Apollo Client does to the queries it
 * sends, so the answer can be written into Apollo's normalised cache. Enough for queries without
 * fragments or object literals (the `Me` query).
 */
export function withTypenames(query: string): string {
  let first = true;
  // Comments go first: a brace in one must not count.
  return query.replace(/#[^\n]*/g, '').replace(/\{/g, () => {
    if (first) {
      first = false;
      return '{';
    }
    return '{ __typename';
  });
}

/** The `Me` answer of a GraphQL response body, or null: an error, or no user, counts as signed out. */
export function meFromResponse(body: unknown): MeQuery | null {
  if (!body || typeof body !== 'object' || !('data' in body)) return null;
  const data = (body as { data: unknown }).data;
  if (!data || typeof data !== 'object' || !('me' in data)) return null;
  return data as MeQuery;
}

/**
 * The route gating's view of the probe, the same rules as toGatingState(useSession()) before the
 * subscription call: `Me` alone says who is signed in, and the subscription is not known yet (the session
 * routes, with Apollo, ask for it).
 */
export function probeGatingState(result: ProbeResult): SessionState {
  if (result.status === 'loading') return { status: 'loading' };
  if (!result.data?.me) return { status: 'signedOut' };
  return { status: 'signedIn', needsSetup: false, subscriptionCheck: 'loading' };
}

/** How long one ask waits for the gateway, and how many asks there are, before the app shows its signed-out view. */
export const probeWaitMs = 8000;
export const probeAsks = 2;

/**
 * Asks until an answer comes, each ask cut off after `waitMs`: a slow or dropped connection ends in
 * `fallback` after at most `asks × waitMs`, never on an endless spinner.
 */
export async function askWithinBounds<T>(
  ask: (signal: AbortSignal) => Promise<T>,
  fallback: T,
  { waitMs = probeWaitMs, asks = probeAsks }: { waitMs?: number; asks?: number } = {},
): Promise<T> {
  for (let attempt = 0; attempt < asks; attempt += 1) {
    try {
      return await ask(AbortSignal.timeout(waitMs));
    } catch {
      // Timed out, unreachable or not JSON: ask again while asks remain.
    }
  }
  return fallback;
}
