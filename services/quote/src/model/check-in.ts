import { Schema, type Connection, type Model } from 'mongoose';

/** One emotional check-in: 15 ratings (1–5), a time of day, optional notes. */
export interface CheckInRecord {
  _id: string;
  userId: string;
  ratings: Record<string, number>;
  timeOfDay: 'morning' | 'afternoon' | 'evening';
  createdAt: Date;
}

const checkInSchema = new Schema<CheckInRecord>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    ratings: { type: Schema.Types.Mixed, required: true },
    timeOfDay: { type: String, required: true, enum: ['morning', 'afternoon', 'evening'] },
    createdAt: { type: Date, required: true },
  },
  { collection: 'check_ins', versionKey: false },
);
checkInSchema.index({ userId: 1, createdAt: -1 });

export function checkInModel(connection: Connection): Model<CheckInRecord> {
  return connection.model<CheckInRecord>('CheckIn', checkInSchema);
}
