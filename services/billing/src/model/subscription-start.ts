import { isDuplicateKeyError } from '@haven/platform';
import { randomUUID } from 'node:crypto';
import { Schema, type Connection, type Model } from 'mongoose';

/**
 * Who starts the subscription of a succeeded card setup: the browser's call or Stripe's webhook, whichever
 * claims the setup intent first. The claim names the setup intent only (the claimants know the user).
 */
export interface SubscriptionStartRecord {
  _id: string; // the setup intent id
  claimToken: string;
  claimedAt: Date;
  /** Set once the subscription is stored: every later claimant answers it. */
  startedAt: Date | null;
}

const subscriptionStartSchema = new Schema<SubscriptionStartRecord>(
  {
    _id: { type: String, required: true },
    claimToken: { type: String, required: true },
    claimedAt: { type: Date, required: true },
    startedAt: { type: Date, default: null },
  },
  { collection: 'subscription_starts', versionKey: false },
);

export function subscriptionStartModel(connection: Connection): Model<SubscriptionStartRecord> {
  return connection.model<SubscriptionStartRecord>('SubscriptionStart', subscriptionStartSchema);
}

/** A claimant that crashed mid-start gives way after this long; the provider's idempotency key keeps it one. */
const claimLeaseMs = 30_000;

export type StartClaim = { mine: true; token: string } | { mine: false; started: boolean };

export interface SubscriptionStartClaims {
  /** Claims the setup intent's start atomically, or says whether its claimant has finished. */
  claim(setupIntentId: string): Promise<StartClaim>;
  finish(setupIntentId: string, token: string): Promise<void>;
  /** Gives the claim up after a failed start, so the other path may try again. */
  release(setupIntentId: string, token: string): Promise<void>;
  started(setupIntentId: string): Promise<boolean>;
  /** Whether a start of the setup intent was claimed, finished or not. */
  claimed(setupIntentId: string): Promise<boolean>;
}

export function subscriptionStartClaims(connection: Connection): SubscriptionStartClaims {
  const starts = subscriptionStartModel(connection);
  return {
    claim: async (setupIntentId) => {
      const token = randomUUID();
      const now = new Date();
      try {
        await starts.create({ _id: setupIntentId, claimToken: token, claimedAt: now, startedAt: null });
        return { mine: true, token };
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
      }
      const held = await starts.findById(setupIntentId).lean();
      if (!held) return { mine: false, started: false }; // released meanwhile: the caller asks again
      if (held.startedAt) return { mine: false, started: true };
      if (held.claimedAt.getTime() > now.getTime() - claimLeaseMs) return { mine: false, started: false };
      const taken = await starts.updateOne(
        { _id: setupIntentId, claimToken: held.claimToken, startedAt: null },
        { $set: { claimToken: token, claimedAt: now } },
      );
      return taken.modifiedCount === 1 ? { mine: true, token } : { mine: false, started: false };
    },
    finish: async (setupIntentId, token) => {
      await starts.updateOne({ _id: setupIntentId, claimToken: token }, { $set: { startedAt: new Date() } });
    },
    release: async (setupIntentId, token) => {
      await starts.deleteOne({ _id: setupIntentId, claimToken: token, startedAt: null });
    },
    started: async (setupIntentId) => (await starts.exists({ _id: setupIntentId, startedAt: { $ne: null } })) !== null,
    claimed: async (setupIntentId) => (await starts.exists({ _id: setupIntentId })) !== null,
  };
}
