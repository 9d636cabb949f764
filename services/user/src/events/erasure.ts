/**
 * What the user service erases when an account is deleted (see docs/decisions/privacy-and-erasure/erasure-saga.md): the
 * account itself with every event it still holds (the sealed verification token of an unpublished `user.registered`
 * goes with it), its sessions and its safety plan; last, the person's data key, so that whatever of theirs is sealed
 * anywhere else (another service, a cache) can never be read again, nor in a backup once the last key backup holding
 * the key is deleted (7 days). Nothing is kept.
 */
import { eraseOutboxed, type DataMap, type PersonKeyring, type ServiceErasure } from '@haven/platform';
import type { Model } from 'mongoose';
import type { PersonKeyRecord } from '../model/person-key';
import type { SafetyPlanRecord } from '../model/safety-plan';
import type { SessionRecord } from '../model/session';
import type { UserRecord } from '../model/user';

export function userErasure(deps: {
  users: Model<UserRecord>;
  sessions: Model<SessionRecord>;
  safetyPlans: Model<SafetyPlanRecord>;
  personKeys: Model<PersonKeyRecord>;
  personKeyring: PersonKeyring;
}): ServiceErasure {
  return {
    erase: async (userId) => {
      const accounts = await eraseOutboxed(deps.users, { _id: userId });
      const [sessions, plans] = await Promise.all([
        deps.sessions.deleteMany({ userId }),
        deps.safetyPlans.deleteMany({ _id: userId }),
      ]);
      // The key goes last: the account is gone by now, so no new key can be issued for it.
      const key = await deps.personKeys.deleteOne({ _id: userId });
      deps.personKeyring.forget(userId);
      return { records: accounts + sessions.deletedCount + plans.deletedCount + key.deletedCount };
    },
  };
}

/** The user service's collections and where each stands in the data export (the completeness test reads it). */
export const userDataMap: DataMap = {
  users: {
    exported: 'account',
    leftOut: {
      passwordHash: 'a secret: the one-way hash of the password',
      'emailVerification.tokenHash': 'a secret: the hash of the verification link’s token',
      'passwordReset.tokenHash': 'a secret: the hash of the reset link’s token',
      'pendingEmail.tokenHash': 'a secret: the hash of the new address’s link',
      'emailVerification.expiresAt': 'when the verification link’s secret lapses; the link itself is a secret',
      'passwordReset.expiresAt': 'when the reset link’s secret lapses; the link itself is a secret',
      pendingLink:
        'a provider sign-in waiting up to ten minutes for the account’s password, with the secret hashes of its link and browser; once the password is given it is linked (exported as identities), else it lapses',
      'identities.[].key': 'the provider and its id for the person joined, what sign-in looks up; both are exported',
      passwordUnconfirmed:
        'a sign-in safety flag (the password was chosen before the address was proved, in another browser), cleared by a reset link; nothing the person gave',
      subscriptionStatus:
        'a copy of billing’s subscription status for the admin’s list, exported as billing.subscription',
      trialEndsAt: 'a copy of billing’s trial end for the admin’s list, exported as billing.subscription',
      subscriptionRevision: 'the order of billing’s events the copy was taken from (bookkeeping)',
      emailVerifiedAt: 'exported as emailVerified: whether the address is proved',
      updatedAt: 'when the account record last changed (bookkeeping)',
    },
  },
  sessions: {
    exported: 'account.sessions',
    leftOut: { userId: 'the account’s id, said once as account.id' },
  },
  safety_plans: {
    exported: 'safetyPlan',
    leftOut: { _id: 'the account’s id, said once as account.id' },
  },
  person_keys: {
    bookkeeping:
      'the person’s data key, wrapped by a master key: a secret, never exported, deleted last at erasure (it unlocks their sealed content)',
  },
  sign_in_flows: {
    noUserData:
      'a federated sign-in between the redirect and the callback (hashed state, PKCE verifier, nonce, binding hash; 10 minutes): no account, id or address',
  },
};
