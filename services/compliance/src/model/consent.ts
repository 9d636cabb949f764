import { Schema, type Connection, type Model } from 'mongoose';
import { visitorConsentCleanupSeconds } from '../domain/consent';

/**
 * Cookie choices. A signed-in user's is personal data keyed by the user id (`cookie_consents`, `_id` = user
 * id), so erasure and the data export find it by that id. A signed-out visitor's is keyed by the random id in
 * the gateway's consent cookie (`visitor_cookie_consents`) and moves to the account when the visitor signs in
 * (resolvers/consent.ts). Only the latest choice is kept, with its time and the policy version it answered.
 */
export interface ConsentRecord {
  _id: string;
  necessary: boolean;
  analytics: boolean;
  marketing: boolean;
  preferences: boolean;
  consentGivenAt: Date;
  policyVersion: string;
  updatedAt: Date;
}

const fields = {
  _id: { type: String, required: true },
  necessary: { type: Boolean, required: true },
  analytics: { type: Boolean, required: true },
  marketing: { type: Boolean, required: true },
  preferences: { type: Boolean, required: true },
  consentGivenAt: { type: Date, required: true },
  policyVersion: { type: String, required: true },
  updatedAt: { type: Date, required: true },
} as const;

const userConsentSchema = new Schema<ConsentRecord>(fields, { collection: 'cookie_consents', versionKey: false });
const visitorConsentSchema = new Schema<ConsentRecord>(fields, {
  collection: 'visitor_cookie_consents',
  versionKey: false,
});
// Clean-up only, and the daily sweep does the same on the embedded development server, which ignores TTL
// indexes (jobs/visitor-consent-sweep.ts): nothing relies on the expiry.
visitorConsentSchema.index({ updatedAt: 1 }, { expireAfterSeconds: visitorConsentCleanupSeconds });

export function userConsentModel(connection: Connection): Model<ConsentRecord> {
  return connection.model<ConsentRecord>('CookieConsent', userConsentSchema);
}

export function visitorConsentModel(connection: Connection): Model<ConsentRecord> {
  return connection.model<ConsentRecord>('VisitorCookieConsent', visitorConsentSchema);
}
