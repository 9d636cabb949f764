import {
  cardChangeChallengeUrl,
  cardChangePlaceOf,
  parseChallenge,
  parseSetupReturn,
  setupReturnPath,
  stripeReturnUrl,
} from './setupReturn';

describe('the return from a card’s bank check', () => {
  it('reads Stripe’s return parameters', () => {
    expect(
      parseSetupReturn('?setup_intent=seti_1&setup_intent_client_secret=seti_1_secret_x&redirect_status=succeeded'),
    ).toEqual({ setupIntent: 'seti_1', clientSecret: 'seti_1_secret_x', succeeded: true, cardChange: null });
    expect(
      parseSetupReturn('?setup_intent=seti_1&setup_intent_client_secret=seti_1_secret_x&redirect_status=failed'),
    ).toEqual({ setupIntent: 'seti_1', clientSecret: 'seti_1_secret_x', succeeded: false, cardChange: null });
  });

  it('is no return without every parameter, or with a status it does not know', () => {
    expect(parseSetupReturn('')).toBeNull();
    expect(parseSetupReturn('?setup_intent=seti_1&redirect_status=succeeded')).toBeNull();
    expect(parseSetupReturn('?setup_intent=seti_1&setup_intent_client_secret=s&redirect_status=processing')).toBeNull();
  });

  it('builds the same return for the local provider’s stand-in page', () => {
    const back = {
      setupIntent: 'seti_local_1',
      clientSecret: 'seti_local_1_secret_a&b',
      succeeded: false,
      cardChange: null,
    };
    const path = setupReturnPath(back);
    expect(path.startsWith('/subscription?')).toBe(true);
    expect(parseSetupReturn(path.slice(path.indexOf('?')))).toEqual(back);
  });

  it('reads the stand-in page’s setup', () => {
    expect(parseChallenge('?setup_intent=seti_1&setup_intent_client_secret=s')).toEqual({
      setupIntent: 'seti_1',
      clientSecret: 's',
      cardChange: null,
    });
    expect(parseChallenge('?setup_intent=seti_1')).toBeNull();
  });
});

describe('the return from a card change’s bank check', () => {
  it('goes back to the page the change started on, marked as a change, on both providers', () => {
    const challenge = cardChangeChallengeUrl(
      '/local-payments/authenticate?setup_intent=seti_1&setup_intent_client_secret=c',
      'settings',
    );
    const asked = parseChallenge(challenge.slice(challenge.indexOf('?')));
    expect(asked).toEqual({ setupIntent: 'seti_1', clientSecret: 'c', cardChange: 'settings' });
    const back = { setupIntent: 'seti_1', clientSecret: 's', succeeded: true, cardChange: 'settings' as const };
    const path = setupReturnPath(back);
    expect(path.startsWith('/settings?')).toBe(true);
    expect(parseSetupReturn(path.slice(path.indexOf('?')))).toEqual(back);
    expect(setupReturnPath({ ...back, cardChange: 'subscription' }).startsWith('/subscription?')).toBe(true);
    expect(stripeReturnUrl('https://haven.test', 'settings')).toBe('https://haven.test/settings?card_change=settings');
    expect(stripeReturnUrl('https://haven.test', null)).toBe('https://haven.test/subscription');
  });

  it('never names a place Haven does not know', () => {
    const query = '?setup_intent=s&setup_intent_client_secret=c&redirect_status=failed&card_change=https://evil.test';
    expect(parseSetupReturn(query)?.cardChange).toBeNull();
    expect(cardChangePlaceOf('/settings')).toBe('settings');
    expect(cardChangePlaceOf('/subscription')).toBe('subscription');
    expect(cardChangePlaceOf('/journal')).toBeNull();
  });
});
