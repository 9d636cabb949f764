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

/**
 * A holder renews at most once per third of the lease: until then at least two thirds of it are left, which no
 * other replica can take, so a busy holder (the relay passes dozens of times a second under load) does not
 * write the lease on every pass.
 */
const renewAfterShare = 1 / 3;

export function createLease(
  db: Connection,
  name: string,
  options: { ms: number; owner?: string; clock?: () => number },
): Lease {
  const clock = options.clock ?? Date.now;
  const owner = options.owner ?? randomUUID();
  const leases = () => db.collection<LeaseRecord>(leasesCollection);
  /** When this holder last renewed the lease (its clock), or null while it does not hold it. */
  let renewedAt: number | null = null;
  return {
    owner,
    hold: async () => {
      const now = new Date(clock());
      if (
        renewedAt !== null &&
        now.getTime() - renewedAt >= 0 &&
        now.getTime() - renewedAt < options.ms * renewAfterShare
      ) {
        return true;
      }
      renewedAt = null;
      try {
        const lease = await leases().findOneAndUpdate(
          { _id: name, $or: [{ owner }, { expiresAt: { $lte: now } }] },
          { $set: { owner, expiresAt: new Date(now.getTime() + options.ms) } },
          { upsert: true, returnDocument: 'after' },
        );
        if (lease?.owner !== owner) return false;
        renewedAt = now.getTime();
        return true;
      } catch (error) {
        // Two replicas upserting at once: the one whose insert lost sees the other's lease.
        if (isDuplicateKeyError(error)) return false;
        throw error;
      }
    },
    release: async () => {
      renewedAt = null;
      await leases().updateOne({ _id: name, owner }, { $set: { expiresAt: new Date(0) } });
    },
  };
}
