import {
  isDuplicateKeyError,
  newPersonKey,
  unwrapPersonKey,
  type MasterKeys,
  type WrappedPersonKey,
} from '@haven/platform';
import { Schema, type Connection, type Model } from 'mongoose';

/** A person's data key, wrapped by a master key (its `_id` is the user's id); deleted at erasure, which shreds their content. */
export interface PersonKeyRecord extends WrappedPersonKey {
  _id: string;
  createdAt: Date;
}

const personKeySchema = new Schema<PersonKeyRecord>(
  {
    _id: { type: String, required: true },
    masterKeyId: { type: String, required: true },
    wrappedKey: { type: String, required: true },
    createdAt: { type: Date, required: true },
  },
  { collection: 'person_keys', versionKey: false },
);
personKeySchema.index({ masterKeyId: 1 });

export function personKeyModel(connection: Connection): Model<PersonKeyRecord> {
  return connection.model<PersonKeyRecord>('PersonKey', personKeySchema);
}

/**
 * The person's data key, issued the first time anything of theirs is sealed; null when there is no such account
 * (never issued for one being erased), or its master key is no longer configured.
 */
export async function issuedPersonKey(
  deps: {
    personKeys: Model<PersonKeyRecord>;
    accountExists: (userId: string) => Promise<boolean>;
    masters: MasterKeys;
  },
  userId: string,
): Promise<Buffer | null> {
  const stored = await deps.personKeys.findById(userId).lean<PersonKeyRecord>();
  if (stored) return unwrapPersonKey(deps.masters, userId, stored);
  if (!(await deps.accountExists(userId))) return null;
  try {
    await deps.personKeys.create({ _id: userId, ...newPersonKey(deps.masters, userId), createdAt: new Date() });
  } catch (error) {
    // Two first asks at once: the other one's key is the person's.
    if (!isDuplicateKeyError(error)) throw error;
  }
  // Closed meanwhile: its erasure may have run before the key existed, so the key goes here.
  if (!(await deps.accountExists(userId))) {
    await deps.personKeys.deleteOne({ _id: userId });
    return null;
  }
  const issued = await deps.personKeys.findById(userId).lean<PersonKeyRecord>();
  return issued ? unwrapPersonKey(deps.masters, userId, issued) : null;
}
