import type { Connection } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { isDuplicateKeyError } from './mongo';

/**
 * Which replica does a piece of work that one replica at a time should do (the outbox relay, each scheduled
 * job): one document per piece of work in the service database's `leases` collection. The holder renews it
 * as it works; when it dies, another replica takes it once it has expired.
 */
export const leasesCollection = 'leases';

interface LeaseRecord {
  _id: string;
  owner: string;
  expiresAt: Date;
}

export interface Lease {
  readonly owner: string;
  /** Takes the lease if it is free or expired, renews it if it is ours; false while another replica holds it. */
  hold(): Promise<boolean>;
  /** Lets another replica take it at once (a clean stop); nothing when another holds it. */
  release(): Promise<void>;
}

export function createLease(db: Connection, name: string, options: { ms: number; owner?: string }): Lease {
  const owner = options.owner ?? randomUUID();
  const leases = () => db.collection<LeaseRecord>(leasesCollection);
  return {
    owner,
    hold: async () => {
      const now = new Date();
      try {
        const lease = await leases().findOneAndUpdate(
          { _id: name, $or: [{ owner }, { expiresAt: { $lte: now } }] },
          { $set: { owner, expiresAt: new Date(now.getTime() + options.ms) } },
          { upsert: true, returnDocument: 'after' },
        );
        return lease?.owner === owner;
      } catch (error) {
        // Two replicas upserting at once: the one whose insert lost sees the other's lease.
        if (isDuplicateKeyError(error)) return false;
        throw error;
      }
    },
    release: async () => {
      await leases().updateOne({ _id: name, owner }, { $set: { expiresAt: new Date(0) } });
    },
  };
}
