import { Schema, type Connection, type Model } from 'mongoose';

/** A signed-in browser. Deleting it revokes the session token that names it. */
export interface SessionRecord {
  _id: string;
  userId: string;
  createdAt: Date;
  // Checked on every request; expired sessions are swept (jobs/expiry-sweep.ts; no TTL index, outside the portable subset).
  expiresAt: Date;
}

const sessionSchema = new Schema<SessionRecord>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true, index: true },
    createdAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
  },
  { collection: 'sessions', versionKey: false },
);

export function sessionModel(connection: Connection): Model<SessionRecord> {
  return connection.model<SessionRecord>('Session', sessionSchema);
}
