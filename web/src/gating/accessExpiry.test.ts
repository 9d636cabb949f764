import type { ApolloClient } from '@apollo/client';
import { EndSessionDocument, MeDocument } from '../graphql/operations.generated';
import { toastStore, type ToastItem } from '../ui/toastStore';
import { createAccessExpiryHandler } from './accessExpiry';

function fakeClient() {
  const calls: string[] = [];
  const client = {
    clearStore: async () => {
      calls.push('clearStore');
      return [];
    },
    mutate: async ({ mutation }: { mutation: unknown }) => {
      calls.push(mutation === EndSessionDocument ? 'endSession' : 'other mutation');
      return { data: { logout: true } };
    },
    refetchQueries: ({ include }: { include: unknown[] }) => {
      calls.push(include.includes(MeDocument) ? 'refetchMe' : 'refetch');
      return Promise.resolve([]);
    },
  };
  return { client: client as unknown as ApolloClient, calls };
}

describe('the 403 handling (access expiry)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('shows the reason’s title over the server’s words for 5 s, clears the cache, ends the server session, then goes to /auth after 2 s', async () => {
    let toasts: ToastItem[] = [];
    const unsubscribe = toastStore.subscribe((next) => (toasts = [...next]));
    const navigated: string[] = [];
    const handle = createAccessExpiryHandler({ navigate: (path) => navigated.push(path) });
    const { client, calls } = fakeClient();

    const denial = {
      reason: 'trial_expired',
      message: 'Your 3-day free trial has ended. Please subscribe to continue.',
    };
    handle(denial, client);
    handle(denial, client); // a second failing query at the same moment changes nothing
    await jest.advanceTimersByTimeAsync(0);
    expect(toasts[0]).toMatchObject({
      title: 'Trial Expired',
      description: 'Your 3-day free trial has ended. Please subscribe to continue.',
      variant: 'destructive',
      duration: 5000,
    });
    expect(calls).toEqual(['clearStore', 'endSession']);
    expect(navigated).toEqual([]);

    await jest.advanceTimersByTimeAsync(1999);
    expect(navigated).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(navigated).toEqual(['/auth']);
    await jest.advanceTimersByTimeAsync(0);
    expect(calls).toEqual(['clearStore', 'endSession', 'refetchMe']);
    unsubscribe();
  });
});
