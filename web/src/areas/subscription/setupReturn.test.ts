import { parseChallenge, parseSetupReturn, setupReturnPath } from './setupReturn';

describe('the return from a card’s bank check', () => {
  it('reads Stripe’s return parameters', () => {
    expect(
      parseSetupReturn('?setup_intent=seti_1&setup_intent_client_secret=seti_1_secret_x&redirect_status=succeeded'),
    ).toEqual({ setupIntent: 'seti_1', clientSecret: 'seti_1_secret_x', succeeded: true });
    expect(
      parseSetupReturn('?setup_intent=seti_1&setup_intent_client_secret=seti_1_secret_x&redirect_status=failed'),
    ).toEqual({ setupIntent: 'seti_1', clientSecret: 'seti_1_secret_x', succeeded: false });
  });

  it('is no return without every parameter, or with a status it does not know', () => {
    expect(parseSetupReturn('')).toBeNull();
    expect(parseSetupReturn('?setup_intent=seti_1&redirect_status=succeeded')).toBeNull();
    expect(parseSetupReturn('?setup_intent=seti_1&setup_intent_client_secret=s&redirect_status=processing')).toBeNull();
  });

  it('builds the same return for the local provider’s stand-in page', () => {
    const back = { setupIntent: 'seti_local_1', clientSecret: 'seti_local_1_secret_a&b', succeeded: false };
    const path = setupReturnPath(back);
    expect(path.startsWith('/subscription?')).toBe(true);
    expect(parseSetupReturn(path.slice(path.indexOf('?')))).toEqual(back);
  });

  it('reads the stand-in page’s setup', () => {
    expect(parseChallenge('?setup_intent=seti_1&setup_intent_client_secret=s')).toEqual({
      setupIntent: 'seti_1',
      clientSecret: 's',
    });
    expect(parseChallenge('?setup_intent=seti_1')).toBeNull();
  });
});
