/**
 * What the user service erases when an account is deleted (docs/decisions.md, "Erasure and
 * export"): the account itself with every event it still holds (the clear verification token of an
 * unpublished `user.registered` goes with it), and its sessions. Nothing is kept.
 */
import { eraseOutboxed, type DataMap, type ServiceErasure } from '@haven/platform';
import type { Model } from 'mongoose';
import type { SessionRecord } from '../model/session';
import type { UserRecord } from '../model/user';

export function userErasure(deps: { users: Model<UserRecord>; sessions: Model<SessionRecord> }): ServiceErasure {
  return {
    erase: async (userId) => {
      const accounts = await eraseOutboxed(deps.users, { _id: userId });
      const sessions = await deps.sessions.deleteMany({ userId });
      return { records: accounts + sessions.deletedCount };
    },
  };
}

/** The user service's collections and where each stands in the data export (the completeness test reads it). */
export const userDataMap: DataMap = {
  users: { exported: 'account' },
  sessions: { exported: 'account.sessions' },
  sign_in_flows: {
    noUserData:
      'a federated sign-in between the redirect and the callback (hashed state, PKCE verifier, nonce, binding hash; 10 minutes): no account, id or address',
  },
};
