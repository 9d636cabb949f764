/** The session probe's request and hook (see sessionProbe.ts for why it exists). */
import { useSyncExternalStore } from 'react';
import { GRAPHQL_PATH } from '../constants';
import meQuerySource from './session.graphql?raw';
import { rendersAsPrerendered } from '../lib/prerendered';
import { askWithinBounds, meFromResponse, withTypenames, type ProbeResult } from './sessionProbe';

/**
 * A prerendered page was served because the request carried no session: it starts as signed out (as it was
 * rendered), and the probe's answer still decides. Elsewhere nothing is known until the probe answers. As an
 * answer of nobody, so the first page that needs Apollo (sign-in) starts signed out from it too, as it was rendered.
 */
const SIGNED_OUT: ProbeResult = { status: 'done', data: { me: null } };
let result: ProbeResult = rendersAsPrerendered() ? SIGNED_OUT : { status: 'loading' };
let started = false;
const listeners = new Set<() => void>();

function requestMe(): Promise<ProbeResult> {
  const ask = async (signal: AbortSignal): Promise<ProbeResult> => {
    const response = await fetch(GRAPHQL_PATH, {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ operationName: 'Me', query: withTypenames(meQuerySource), variables: {} }),
      signal,
    });
    return { status: 'done', data: meFromResponse(await response.json()) };
  };
  // No answer at all: signed out, as useSession() treats a failed `me` (unless someone was signed in here last).
  return askWithinBounds(ask, { status: 'done', data: null, unanswered: true });
}

/** Starts the probe once (main.tsx calls it before the first render, so it runs while bundles load). */
export function startSessionProbe(): void {
  // The build's prerender asks no one: it renders the signed-out page.
  if (started || typeof window === 'undefined') return;
  started = true;
  void requestMe().then((answer) => {
    // Signed out as the prerendered page assumed: nothing changes. An update now would reach the page before React
    // has adopted its HTML, and React would draw it again.
    if (result === SIGNED_OUT && answer.status === 'done' && !answer.data?.me) return;
    result = answer;
    for (const listener of listeners) listener();
  });
}

export function sessionProbeResult(): ProbeResult {
  return result;
}

/** Whether `probe` is the assumed signed-out state of a prerendered page, not an answer. */
export function isAssumedSignedOut(probe: ProbeResult): boolean {
  return probe === SIGNED_OUT;
}

/** Calls `listener` whenever the probe's result changes (an answer that differs from the page's assumption). */
export function subscribeSessionProbe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSessionProbe(): ProbeResult {
  startSessionProbe();
  return useSyncExternalStore(subscribeSessionProbe, sessionProbeResult, sessionProbeResult);
}
