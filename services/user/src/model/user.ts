import { byIds, outboxPlugin, type WithOutbox } from '@haven/platform';
import { Schema, type Connection, type HydratedDocument, type Model } from 'mongoose';
import type { FederatedProvider } from '../domain/federated-sign-in';

/** How the account was created: a password, Google, or the hosted platform ("oidc"). */
export type AuthProvider = 'email' | FederatedProvider;
export type { FederatedProvider };

/** A provider's account linked to this one; `key` ("<provider>:<subject>") is what sign-in looks up. */
export interface LinkedIdentity {
  key: string;
  provider: FederatedProvider;
  /** The provider's stable id for the person (`sub`). */
  subject: string;
  /** The address the provider gave when it was linked. */
  email: string;
  /** Whether the provider vouched for that address (`email_verified: true`). */
  emailVerified: boolean;
  linkedAt: Date;
}

/** A provider sign-in waiting for the account's password before it is linked (the hash of a one-time token). */
export interface PendingLink {
  tokenHash: string;
  provider: FederatedProvider;
  subject: string;
  email: string;
  emailVerified: boolean;
  /** sha256 of the browser binding of the sign-in that asked: the password must come from that browser. */
  bindingHash: string | null;
  expiresAt: Date;
}

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
  /**
   * The password was chosen before the address was proven, and the address was then verified in a browser not
   * signed in with it: whoever chose the password may not own the mailbox. It still signs in, but such an account
   * is nobody's admin and a provider sign-in does not join it by itself; a reset link (the mailbox) clears it.
   */
  passwordUnconfirmed?: boolean;
  /** A pending password reset link (its hash); single-use, cleared when used or when the password changes. */
  passwordReset: { tokenHash: string; expiresAt: Date } | null;
  /** A new address waiting for its link to be used; the account keeps `email` until then. */
  pendingEmail: { address: string; tokenHash: string; expiresAt: Date } | null;
  /** IANA name; check-in "today" and weekly e-mails use it (other services read it). */
  timeZone: string;
  /** Google and hosted-platform sign-ins linked to this account, oldest first. */
  identities: LinkedIdentity[];
  pendingLink: PendingLink | null;
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
    passwordUnconfirmed: { type: Boolean, default: false },
    passwordReset: {
      type: new Schema({ tokenHash: String, expiresAt: Date }, { _id: false }),
      default: null,
    },
    pendingEmail: {
      type: new Schema({ address: String, tokenHash: String, expiresAt: Date }, { _id: false }),
      default: null,
    },
    timeZone: { type: String, default: 'UTC' },
    identities: {
      type: [
        new Schema(
          {
            key: { type: String, required: true },
            provider: { type: String, required: true, enum: ['google', 'oidc'] },
            subject: { type: String, required: true },
            email: { type: String, required: true },
            emailVerified: { type: Boolean, required: true },
            linkedAt: { type: Date, required: true },
          },
          { _id: false },
        ),
      ],
      default: [],
    },
    pendingLink: {
      type: new Schema(
        {
          tokenHash: String,
          provider: String,
          subject: String,
          email: String,
          emailVerified: Boolean,
          bindingHash: { type: String, default: null },
          expiresAt: Date,
        },
        { _id: false },
      ),
      default: null,
    },
    subscriptionStatus: { type: String, default: null },
    trialEndsAt: { type: Date, default: null },
    subscriptionRevision: { type: Number, default: null },
  },
  { timestamps: true, collection: 'users' },
);
// Every federated sign-in looks its identity up; one account per identity is kept by the sign-in rules
// (an identity is linked only after looking it up), since a unique index over an array is not portable.
userSchema.index({ 'identities.key': 1 });
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
