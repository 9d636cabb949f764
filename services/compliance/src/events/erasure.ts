/**
 * What compliance erases of a deleted account itself: its consents. The cookie consents arrive with the
 * consent issue (another branch): their collection is named here, so the erasure covers them from the
 * start (a document keyed by the user id, or carrying it as `userId`). The saga's own records stay: they
 * hold a keyed hash of the id once the deletion completed (account_deletions).
 */
import type { DataMap, ServiceErasure } from '@haven/platform';
import type { Connection } from 'mongoose';

/** Per-user consent collections of this service; the consent issue adds its own here when it differs. */
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
  cookie_consents: { exported: 'consents.cookies' },
};
