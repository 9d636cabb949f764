/** The pure rules of federated sign-in: the link decision table, the provider's claims, the callback query. */
import {
  callbackParams,
  decideFederatedSignIn,
  identityKey,
  profileFromClaims,
  providerVouchesForEmail,
  signInFailureMessage,
  type SignInFacts,
} from '../src/domain/federated-sign-in';

describe('decideFederatedSignIn', () => {
  const account = (emailVerified: boolean, hasPassword: boolean) => ({ id: 'acct-1', emailVerified, hasPassword });

  it('signs in whoever is linked already, whatever else is true', () => {
    for (const accountWithEmail of [null, account(false, false), account(true, true)]) {
      for (const providerEmailVerified of [true, false]) {
        expect(decideFederatedSignIn({ linkedAccountId: 'linked', accountWithEmail, providerEmailVerified })).toEqual({
          action: 'sign-in',
          accountId: 'linked',
        });
      }
    }
  });

  it('creates an account for a new address, verified only when the provider vouches for it', () => {
    expect(
      decideFederatedSignIn({ linkedAccountId: null, accountWithEmail: null, providerEmailVerified: true }),
    ).toEqual({
      action: 'create',
      emailVerified: true,
    });
    expect(
      decideFederatedSignIn({ linkedAccountId: null, accountWithEmail: null, providerEmailVerified: false }),
    ).toEqual({ action: 'create', emailVerified: false });
  });

  // An existing account with the provider's address: [provider vouches, account verified, has password] → action.
  const table: Array<[boolean, boolean, boolean, string]> = [
    [true, true, true, 'link'],
    [true, true, false, 'link'],
    [true, false, true, 'ask-password'],
    [false, true, true, 'ask-password'],
    [false, false, true, 'ask-password'],
    [true, false, false, 'refuse'],
    [false, true, false, 'refuse'],
    [false, false, false, 'refuse'],
  ];
  it.each(table)(
    'provider vouches %s, account verified %s, has a password %s → %s',
    (providerEmailVerified, emailVerified, hasPassword, action) => {
      const facts: SignInFacts = {
        linkedAccountId: null,
        accountWithEmail: account(emailVerified, hasPassword),
        providerEmailVerified,
      };
      const decision = decideFederatedSignIn(facts);
      expect(decision.action).toBe(action);
      if (action === 'link' || action === 'ask-password') expect(decision).toMatchObject({ accountId: 'acct-1' });
      if (action === 'refuse') expect(decision).toEqual({ action: 'refuse', reason: 'account_exists' });
    },
  );
});

describe('profileFromClaims', () => {
  it('takes the subject, the canonical address, whether it is vouched for, the names and an https picture', () => {
    expect(
      profileFromClaims({
        sub: '1234',
        email: ' Ann@Example.COM ',
        email_verified: true,
        given_name: ' Ann ',
        family_name: 'Lee',
        picture: 'https://images.example/ann.png',
      }),
    ).toEqual({
      ok: true,
      profile: {
        subject: '1234',
        email: 'ann@example.com',
        emailVerified: true,
        firstName: 'Ann',
        lastName: 'Lee',
        profileImageUrl: 'https://images.example/ann.png',
      },
    });
  });

  it('counts only true (or "true") as vouching for the address', () => {
    expect([true, 'true', false, 'false', 1, undefined, null].map(providerVouchesForEmail)).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('keeps no picture that is not https, and falls back to the full name when there are no parts', () => {
    const result = profileFromClaims({ sub: 's', email: 'a@example.com', name: 'Sam Poe', picture: 'http://x.test/p' });
    expect(result).toMatchObject({
      ok: true,
      profile: { firstName: 'Sam Poe', lastName: null, profileImageUrl: null },
    });
  });

  it('refuses an answer without a subject, and one without a usable address', () => {
    expect(profileFromClaims({ email: 'a@example.com' })).toEqual({ ok: false, reason: 'failed' });
    expect(profileFromClaims({ sub: 's' })).toEqual({ ok: false, reason: 'no_email' });
    expect(profileFromClaims({ sub: 's', email: 'not an address' })).toEqual({ ok: false, reason: 'no_email' });
  });
});

describe('callbackParams', () => {
  it('reads state, code and error; empty counts as missing', () => {
    expect(callbackParams('?code=c1&state=s1&iss=https%3A%2F%2Fidp')).toEqual({ code: 'c1', state: 's1', error: null });
    expect(callbackParams('error=access_denied&state=s1')).toEqual({ code: null, state: 's1', error: 'access_denied' });
    expect(callbackParams('code=&state=')).toEqual({ code: null, state: null, error: null });
  });
});

it('keys an identity by provider and subject, so the same subject at two providers is two identities', () => {
  expect(identityKey('google', '42')).not.toBe(identityKey('oidc', '42'));
});

it('names the provider in every failure message', () => {
  for (const reason of ['denied', 'no_email', 'account_exists', 'unavailable', 'unreachable', 'failed'] as const) {
    expect(signInFailureMessage(reason, 'Google')).toContain('Google');
  }
});
