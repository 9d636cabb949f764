import type { ProducerService } from '@haven/proto';
import { Schema, type Connection, type Model } from 'mongoose';
import { erasingServices, type DeletionState } from '../domain/deletion';

/**
 * One account deletion: the saga's state (docs/decisions/privacy-and-erasure/erasure-saga.md). The clear
 * user id is kept only while the saga runs (asking a service again needs it) and removed once every
 * service confirmed; `subjectKey`, a keyed hash of it, stays as the record that the deletion happened.
 */
export interface AccountDeletionRecord {
  _id: string; // the request id
  userId: string | null;
  subjectKey: string;
  requestedBy: 'self' | 'admin';
  state: DeletionState;
  /** When each service confirmed (`<service>.user_data_purged`); absent until then. */
  purgedAt: Partial<Record<ProducerService, Date | null>>;
  /** How many times `account.deletion_requested` went out for it. */
  requests: number;
  lastRequestedAt: Date | null;
  createdAt: Date;
  completedAt: Date | null;
}

const accountDeletionSchema = new Schema<AccountDeletionRecord>(
  {
    _id: { type: String, required: true },
    userId: { type: String, default: null },
    subjectKey: { type: String, required: true, index: true },
    requestedBy: { type: String, required: true, enum: ['self', 'admin'] },
    state: { type: String, required: true, enum: ['opening', 'pending', 'completed'], index: true },
    purgedAt: new Schema(
      Object.fromEntries(erasingServices.map((service) => [service, { type: Date, default: null }])),
      { _id: false },
    ),
    requests: { type: Number, default: 0 },
    lastRequestedAt: { type: Date, default: null },
    createdAt: { type: Date, required: true },
    completedAt: { type: Date, default: null },
  },
  { collection: 'account_deletions', versionKey: false },
);

export function accountDeletionModel(connection: Connection): Model<AccountDeletionRecord> {
  return connection.model<AccountDeletionRecord>('AccountDeletion', accountDeletionSchema);
}
