import { canonicalEmail, erasureKey, keyedHash } from '@haven/platform';
import { Schema, type Connection, type Model } from 'mongoose';

/**
 * One free trial per address, also across a deleted account: a keyed hash (HMAC under billing's trial key) of the
 * canonical address of every account that started a subscription, kept after the account is erased on purpose
 * (the privacy policy says so), for three years after the claim (domain/retention.ts; the retained-records sweep
 * deletes it). It holds no address, name or id, and says nothing without the key; a new account whose address
 * hashes to one of them subscribes without a trial.
 */
export interface TrialClaimRecord {
  _id: string; // keyed hash of the canonical address
  claimedAt: Date;
}

const trialClaimSchema = new Schema<TrialClaimRecord>(
  { _id: { type: String, required: true }, claimedAt: { type: Date, required: true } },
  { collection: 'trial_claims', versionKey: false },
);

export function trialClaimModel(connection: Connection): Model<TrialClaimRecord> {
  return connection.model<TrialClaimRecord>('TrialClaim', trialClaimSchema);
}

export interface TrialClaims {
  /** Whether an account with this address has had its trial (this one or an earlier, deleted one). */
  claimed(email: string): Promise<boolean>;
  /** Records that an account with this address has had its trial; a second record changes nothing. */
  record(email: string): Promise<void>;
}

/** The address as Haven stores it (the user service keeps it canonical already; an odd one is only trimmed). */
function canonical(email: string): string {
  const checked = canonicalEmail(email);
  return checked.ok ? checked.address : email.trim().toLowerCase();
}

export function trialClaims(
  connection: Connection,
  secrets: { ERASURE_HMAC_SECRET?: string; SUBGRAPH_SECRET?: string },
): TrialClaims {
  const claims = trialClaimModel(connection);
  // Its own key, derived like the erasure records' (ERASURE_HMAC_SECRET), so no other record hashes the same.
  const key = erasureKey('billing:trial-claims', secrets);
  const hashOf = (email: string) => keyedHash(key, canonical(email));
  return {
    claimed: async (email) => email.trim() !== '' && (await claims.exists({ _id: hashOf(email) })) !== null,
    record: async (email) => {
      if (email.trim() === '') return;
      await claims.updateOne({ _id: hashOf(email) }, { $setOnInsert: { claimedAt: new Date() } }, { upsert: true });
    },
  };
}
