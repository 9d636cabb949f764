import { byIds, outboxPlugin, type WithOutbox } from '@haven/platform';
import { Schema, type Connection, type HydratedDocument, type Model } from 'mongoose';

export type AuthProvider = 'email' | 'google' | 'oidc';

export interface UserRecord extends WithOutbox {
  _id: string;
  email: string;
  passwordHash: string | null;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  authProvider: AuthProvider;
  emailVerifiedAt: Date | null;
  emailVerification: { tokenHash: string; expiresAt: Date } | null;
  /** A pending password reset link (its hash); single-use, cleared when used or when the password changes. */
  passwordReset: { tokenHash: string; expiresAt: Date } | null;
  /** A new address waiting for its link to be used; the account keeps `email` until then. */
  pendingEmail: { address: string; tokenHash: string; expiresAt: Date } | null;
  /** IANA name; check-in "today" and weekly e-mails use it (other services read it). */
  timeZone: string;
  /**
   * Billing's status of the user's subscription (trialing, active, trial_expired, …) and the trial's end, kept
   * from billing's events for the admin's list (`subscriptionRevision` orders them); null before any event.
   */
  subscriptionStatus?: string | null;
  trialEndsAt?: Date | null;
  subscriptionRevision?: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export type UserDocument = HydratedDocument<UserRecord>;

const userSchema = new Schema<UserRecord>(
  {
    _id: { type: String, required: true },
    email: { type: String, required: true, unique: true },
    passwordHash: { type: String, default: null },
    firstName: { type: String, default: null },
    lastName: { type: String, default: null },
    profileImageUrl: { type: String, default: null },
    authProvider: { type: String, required: true, enum: ['email', 'google', 'oidc'] },
    emailVerifiedAt: { type: Date, default: null },
    emailVerification: {
      type: new Schema({ tokenHash: String, expiresAt: Date }, { _id: false }),
      default: null,
    },
    passwordReset: {
      type: new Schema({ tokenHash: String, expiresAt: Date }, { _id: false }),
      default: null,
    },
    pendingEmail: {
      type: new Schema({ address: String, tokenHash: String, expiresAt: Date }, { _id: false }),
      default: null,
    },
    timeZone: { type: String, default: 'UTC' },
    subscriptionStatus: { type: String, default: null },
    trialEndsAt: { type: Date, default: null },
    subscriptionRevision: { type: Number, default: null },
  },
  { timestamps: true, collection: 'users' },
);
userSchema.plugin(outboxPlugin);
// The admin's list: newest first, alone or within a status filter (domain/admin-users.ts).
userSchema.index({ createdAt: -1, _id: -1 });
userSchema.index({ subscriptionStatus: 1, createdAt: -1, _id: -1 });
userSchema.index({ emailVerifiedAt: 1, createdAt: -1, _id: -1 });

export function userModel(connection: Connection): Model<UserRecord> {
  return connection.model<UserRecord>('User', userSchema);
}

/** The users among `ids`, in one `$in` query (the batch behind the per-request user loader). */
export function findUsersByIds(users: Model<UserRecord>, ids: readonly string[]) {
  return byIds((filter) => users.find(filter).lean<UserRecord[]>(), ids);
}
