/**
 * What Apollo's cache holds of the session (`Me`) before Apollo has asked for it itself, and after a sign-in.
 * A prerendered page starts from an assumption (signed out, as the build rendered it), never from an answer: the
 * assumption may stand in the cache only until an answer, or a sign-in, says otherwise.
 */
import type { ApolloClient } from '@apollo/client';
import { MeDocument } from '../graphql/operations.generated';
import type { ProbeResult } from './sessionProbe';

/** Puts the probe's result in the cache, so `useSession()` neither asks again nor waits (and so shows no spinner). */
export function seedSessionCache(client: ApolloClient, probe: ProbeResult): void {
  if (probe.status !== 'done' || !probe.data) return;
  try {
    client.writeQuery({ query: MeDocument, data: probe.data });
  } catch {
    // An answer that does not fit the cache: useSession() simply asks again.
  }
}

/**
 * The probe's answer came after the cache was seeded with the assumed signed-out state (someone signed in, in
 * another tab, between the page's HTML and the probe's answer): a signed-in answer replaces the assumption. A
 * cache that holds anything else (a person, or nothing since a sign-in reset it) holds newer news: left alone.
 */
export function adoptLaterProbeAnswer(client: ApolloClient, probe: ProbeResult): void {
  if (probe.status !== 'done' || !probe.data?.me) return;
  const cached = client.readQuery({ query: MeDocument });
  if (cached?.me !== null) return;
  seedSessionCache(client, probe);
}

/**
 * After a sign-in on this page (a password, a new account, a linked provider): everything Apollo holds was asked as
 * nobody (the assumed signed-out state, or an answer from before the session cookie), and so is any request still on
 * its way. All of it goes (an answer still on its way is dropped, never written), and the open queries, `Me` among
 * them, ask again as the person now signed in.
 */
export async function startSignedInSession(client: ApolloClient): Promise<void> {
  try {
    await client.resetStore();
  } catch {
    // A query that fails again shows its own state (a failed `me` is signed out, as before the sign-in).
  }
}
