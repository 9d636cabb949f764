import { askWithinBounds, meFromResponse, probeGatingState, withTypenames } from './sessionProbe';

describe('session probe', () => {
  it('asks for __typename in every selection set below the operation, as Apollo does', () => {
    const query = 'query Me {\n  me {\n    id\n    subscriptionStatus {\n      needsSetup\n    }\n  }\n}\n';
    expect(withTypenames(query).replace(/\s+/g, ' ')).toBe(
      'query Me { me { __typename id subscriptionStatus { __typename needsSetup } } } ',
    );
  });

  it('reads `me` from the answer; errors and odd bodies count as signed out', () => {
    expect(meFromResponse({ data: { me: null } })).toEqual({ me: null });
    expect(meFromResponse({ errors: [{ message: 'boom' }] })).toBeNull();
    expect(meFromResponse('nope')).toBeNull();
  });

  it('gives the route gating the same states as useSession', () => {
    expect(probeGatingState({ status: 'loading' })).toEqual({ status: 'loading' });
    expect(probeGatingState({ status: 'done', data: null })).toEqual({ status: 'signedOut' });
    expect(probeGatingState({ status: 'done', data: { me: null } })).toEqual({ status: 'signedOut' });
    const me = { id: 'u1' };
    expect(probeGatingState({ status: 'done', data: { me } as never })).toEqual({
      status: 'signedIn',
      needsSetup: false,
      subscriptionCheck: 'loading',
    });
  });

  it('asks again once when the gateway does not answer in time, then shows the signed-out view', async () => {
    const signals: AbortSignal[] = [];
    const silent = (signal: AbortSignal) =>
      new Promise<string>((_resolve, reject) => {
        signals.push(signal);
        signal.addEventListener('abort', () => reject(signal.reason));
      });
    await expect(askWithinBounds(silent, 'signed out', { waitMs: 20, asks: 2 })).resolves.toBe('signed out');
    expect(signals).toHaveLength(2);
    expect(signals.every((signal) => signal.aborted)).toBe(true);
  });

  it('takes the second answer when the first ask fails', async () => {
    let asked = 0;
    const flaky = async () => {
      asked += 1;
      if (asked === 1) throw new TypeError('Failed to fetch');
      return 'signed in';
    };
    await expect(askWithinBounds(flaky, 'signed out', { waitMs: 1000, asks: 2 })).resolves.toBe('signed in');
    expect(asked).toBe(2);
  });
});
