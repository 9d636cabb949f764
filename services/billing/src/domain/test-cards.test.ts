import { normaliseCardNumber, outcomeOfTestCard, testCards, unknownTestCardMessage } from './test-cards';

describe('the authentication-required test card', () => {
  it('asks for the bank’s check before anything is decided', () => {
    expect(testCards.requiresAuthentication).toBe('4000002760003184');
    expect(outcomeOfTestCard(normaliseCardNumber('4000 0027 6000 3184')!)).toEqual({
      outcome: 'requires_action',
      message: null,
    });
  });

  it.each(['4000 0025 0000 3155', '4000 0000 0000 3220'])('asks for the check with Stripe’s other card %s', (card) => {
    expect(outcomeOfTestCard(normaliseCardNumber(card)!)).toEqual({ outcome: 'requires_action', message: null });
  });

  it('is listed in the hint for a number test mode does not know', () => {
    expect(outcomeOfTestCard('4111111111111111')).toEqual({ outcome: 'declined', message: unknownTestCardMessage });
    expect(unknownTestCardMessage).toContain('4000 0027 6000 3184');
  });
});

describe('the processing test card', () => {
  it('leaves the setup waiting for the provider, with nothing to tell the person yet', () => {
    expect(outcomeOfTestCard(normaliseCardNumber('4000 0000 0000 0077')!)).toEqual({
      outcome: 'processing',
      message: null,
    });
  });
});
