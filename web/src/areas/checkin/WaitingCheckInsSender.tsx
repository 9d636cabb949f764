/**
 * Sends the check-ins waiting on this device for the signed-in account: at once when the app starts online, and
 * whenever the connection comes back. Each goes with the key it was made with, so a resend after a closed page,
 * a second `online` or another tab stores it once. Rendered by the session routes while someone is signed in.
 */
import type { ApolloClient } from '@apollo/client';
import { useApolloClient } from '@apollo/client/react';
import { useEffect } from 'react';
import { GenerateQuoteDocument } from '../../graphql/operations.generated';
import { toast } from '../../ui/toastStore';
import { forgetAfterCheckIn } from './freshness';
import {
  afterOutcome,
  outcomeOfFailure,
  savedAtLabel,
  waitingStorageKey,
  waitingWords,
  type SendOutcome,
} from './waitingCheckIns';
import {
  publishWaiting,
  readStoredWaiting,
  refreshWaiting,
  setWaitingOwner,
  waitingView,
  writeStoredWaiting,
  type CheckInReply,
} from './waitingStore';

/** Tabs of the app send one at a time (Web Locks where the browser has them); the keys make any overlap harmless. */
async function oneTabAtATime(work: () => Promise<void>): Promise<void> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (locks) await locks.request('haven:check-ins-waiting', work);
  else await work();
}

/** Replies to check-ins sent from this device, told to the app's other tabs, so an open check-in page shows them. */
const repliesChannel = 'haven:check-in-replies';

interface SentReply {
  userId: string;
  key: string;
  reply: CheckInReply;
}

function tellOtherTabs(sent: SentReply): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(repliesChannel);
  channel.postMessage(sent);
  channel.close();
}

async function sendEach(client: ApolloClient, userId: string): Promise<void> {
  // Read afresh: another tab may have sent some while this one waited for the lock.
  for (const checkIn of readStoredWaiting(userId)) {
    if (waitingView().userId !== userId) return;
    let outcome: SendOutcome;
    let reply: CheckInReply | null = null;
    try {
      const { data } = await client.mutate({
        mutation: GenerateQuoteDocument,
        variables: { input: checkIn.input },
        update: forgetAfterCheckIn,
      });
      reply = data?.generateQuote ?? null;
      outcome = reply ? { kind: 'sent' } : { kind: 'kept' };
    } catch (error) {
      outcome = outcomeOfFailure(error);
    }
    const key = checkIn.input.idempotencyKey;
    writeStoredWaiting(userId, afterOutcome(readStoredWaiting(userId), key, outcome));
    if (waitingView().userId !== userId) return;
    if (outcome.kind === 'sent' && reply) {
      tellOtherTabs({ userId, key, reply });
      publishWaiting({ waiting: readStoredWaiting(userId), lastSent: { key, reply } });
      toast(waitingWords.sentToast);
    } else if (outcome.kind === 'refused') {
      const said = waitingWords.refused(savedAtLabel(checkIn), outcome.message);
      publishWaiting({ waiting: readStoredWaiting(userId), refusals: [...waitingView().refusals, said] });
      toast({ title: waitingWords.refusedTitle, description: said, variant: 'destructive' });
    } else {
      // No connection yet, or the server asks for later: the rest wait with it.
      return;
    }
  }
}

let sending = false;
let sendAgain = false;

/** Sends what waits for the signed-in account; a call during a send makes the send look once more when it ends. */
export async function sendWaiting(client: ApolloClient): Promise<void> {
  const { userId } = waitingView();
  if (!userId) return;
  if (sending) {
    sendAgain = true;
    return;
  }
  sending = true;
  try {
    do {
      sendAgain = false;
      await oneTabAtATime(() => sendEach(client, userId));
    } while (sendAgain && waitingView().userId === userId);
  } finally {
    sending = false;
  }
}

export function WaitingCheckInsSender({ userId, canSend }: { userId: string; canSend: boolean }) {
  const client = useApolloClient();
  useEffect(() => {
    setWaitingOwner(userId);
    const send = () => void sendWaiting(client);
    const onStorage = (event: StorageEvent) => {
      if (event.key === null || event.key === waitingStorageKey(userId)) refreshWaiting();
    };
    window.addEventListener('storage', onStorage);
    const replies = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(repliesChannel);
    replies?.addEventListener('message', (event: MessageEvent<SentReply>) => {
      const { key, reply } = event.data;
      if (event.data.userId !== userId || waitingView().userId !== userId) return;
      publishWaiting({ waiting: readStoredWaiting(userId), lastSent: { key, reply } });
    });
    // Only with access to check-ins: without it, they wait for the person rather than being refused.
    if (canSend) {
      window.addEventListener('online', send);
      if (navigator.onLine) send();
    }
    return () => {
      window.removeEventListener('storage', onStorage);
      window.removeEventListener('online', send);
      replies?.close();
    };
  }, [client, userId, canSend]);
  return null;
}
