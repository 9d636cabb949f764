/**
 * What compliance erases of a deleted account itself: its cookie consent (keyed by the user id). The saga's
 * own records stay: they hold a keyed hash of the id once the deletion completed (account_deletions).
 */
import type { DataMap, ServiceErasure } from '@haven/platform';
import type { Connection } from 'mongoose';

/** Per-user consent collections of this service (model/consent.ts). */
export const consentCollections = ['cookie_consents'] as const;

export function complianceErasure(connection: Connection): ServiceErasure {
  return {
    erase: async (userId) => {
      let records = 0;
      for (const name of consentCollections) {
        const result = await connection.collection(name).deleteMany({ $or: [{ _id: userId as never }, { userId }] });
        records += result.deletedCount;
      }
      return { records };
    },
  };
}

/** Compliance's collections and where each stands in the data export. */
export const complianceDataMap: DataMap = {
  account_deletions: {
    erasureRecord: 'the deletion saga: the user id only while it runs, then a keyed hash of it',
  },
  cookie_consents: {
    exported: 'consents.cookies',
    leftOut: {
      _id: 'the account’s id, said once as account.id',
      updatedAt: 'when the choice was last written (bookkeeping); the time it was made is exported',
    },
  },
  visitor_cookie_consents: {
    noUserData:
      'a signed-out browser’s cookie choice under a random id from its consent cookie; no account, id or address; moved to the account at sign-in',
  },
};
