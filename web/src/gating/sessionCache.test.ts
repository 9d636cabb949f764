import { ApolloClient, ApolloLink, InMemoryCache } from '@apollo/client';
import { Observable } from 'rxjs';
import { MeDocument, type MeQuery } from '../graphql/operations.generated';
import { adoptLaterProbeAnswer, seedSessionCache, startSignedInSession } from './sessionCache';

// With its __typename, as the server answers (and as the cache normalises it).
const person = {
  __typename: 'User',
  id: 'u1',
  email: 'robin@example.com',
  firstName: 'Robin',
  lastName: null,
  profileImageUrl: null,
  emailVerified: true,
  isAdmin: false,
  timeZone: 'UTC',
  createdAt: '2026-01-01T00:00:00.000Z',
} as NonNullable<MeQuery['me']>;
const signedOut = { status: 'done', data: { me: null } } as const;
const signedIn = { status: 'done', data: { me: person } } as const;

/** A client whose server answers `answer()` as the request is made; delivered at `release()` when `hold` is set. */
function client(answer: () => MeQuery, options: { hold?: boolean } = {}) {
  const waiting: Array<() => void> = [];
  const link = new ApolloLink(
    () =>
      new Observable((observer) => {
        const data = answer();
        const send = () => {
          observer.next({ data });
          observer.complete();
        };
        if (options.hold) waiting.push(send);
        else send();
      }),
  );
  const apollo = new ApolloClient({ link, cache: new InMemoryCache() });
  return { apollo, release: () => waiting.splice(0).forEach((send) => send()) };
}

const cachedMe = (apollo: ApolloClient) => apollo.readQuery({ query: MeDocument })?.me;

describe('the session in Apollo’s cache', () => {
  it('replaces the assumed signed-out state with a later signed-in answer of the probe', () => {
    const { apollo } = client(() => ({ me: null }));
    seedSessionCache(apollo, signedOut);
    expect(cachedMe(apollo)).toBeNull();
    adoptLaterProbeAnswer(apollo, signedIn);
    expect(cachedMe(apollo)).toEqual(person);
  });

  it('keeps a cache that already holds a person, or nothing since a sign-in, from a later answer', () => {
    const { apollo } = client(() => ({ me: null }));
    seedSessionCache(apollo, { status: 'done', data: { me: { ...person, id: 'u2' } } });
    adoptLaterProbeAnswer(apollo, signedIn);
    expect(cachedMe(apollo)?.id).toBe('u2');

    const reset = client(() => ({ me: null })).apollo;
    adoptLaterProbeAnswer(reset, signedIn);
    expect(cachedMe(reset)).toBeUndefined();
  });

  it('never writes a signed-out answer, nor no answer at all', () => {
    const { apollo } = client(() => ({ me: null }));
    adoptLaterProbeAnswer(apollo, signedOut);
    adoptLaterProbeAnswer(apollo, { status: 'done', data: null, unanswered: true });
    seedSessionCache(apollo, { status: 'loading' });
    expect(cachedMe(apollo)).toBeUndefined();
  });

  it('after a sign-in, drops the assumption and an answer of nobody still on its way, and asks again as the person', async () => {
    let cookie = false;
    const { apollo, release } = client(() => ({ me: cookie ? person : null }), { hold: true });
    seedSessionCache(apollo, signedOut);
    // A question asked before the sign-in, its answer (nobody) still on its way.
    const before = apollo.query({ query: MeDocument, fetchPolicy: 'network-only' }).catch(() => 'dropped');
    const watched: unknown[] = [];
    const subscription = apollo.watchQuery({ query: MeDocument }).subscribe(({ data }) => watched.push(data?.me));
    cookie = true;
    const started = startSignedInSession(apollo);
    // The reset cancels the first question and asks again within its first microtasks; then both answers arrive:
    // nobody's (asked before the cookie), then the person's (asked by the reset).
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await expect(before).resolves.toBe('dropped');
    await started;
    expect(cachedMe(apollo)).toEqual(person);
    expect(watched.at(-1)).toEqual(person);
    subscription.unsubscribe();
  });
});
