import { Schema, type Connection, type Model } from 'mongoose';
import type { FederatedProvider } from '../domain/federated-sign-in';

/**
 * A federated sign-in between the redirect to the provider and its callback. Keyed by the hash of its
 * `state`, so the callback finds it by primary key and a database leak gives no usable state; deleted when
 * the callback arrives (single use), refused after `expiresAt`.
 */
export interface SignInFlowRecord {
  /** sha256 of the `state` sent to the provider. */
  _id: string;
  provider: FederatedProvider;
  /** PKCE: the provider only gives tokens to whoever shows the verifier behind the challenge it saw. */
  codeVerifier: string;
  /** Bound into the ID token: a token minted for another flow is refused. */
  nonce: string;
  /** sha256 of the browser binding the gateway keeps in a cookie: the callback must come from this browser. */
  bindingHash: string;
  /** The browser's time zone when it said one (canonical IANA name): an account this sign-in creates gets it. */
  timeZone: string | null;
  createdAt: Date;
  // Checked when used; expired flows are swept (jobs/expiry-sweep.ts; no TTL index).
  expiresAt: Date;
}

const signInFlowSchema = new Schema<SignInFlowRecord>(
  {
    _id: { type: String, required: true },
    provider: { type: String, required: true, enum: ['google', 'oidc'] },
    codeVerifier: { type: String, required: true },
    nonce: { type: String, required: true },
    bindingHash: { type: String, required: true },
    timeZone: { type: String, default: null },
    createdAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true, index: true },
  },
  { collection: 'sign_in_flows', versionKey: false },
);

export function signInFlowModel(connection: Connection): Model<SignInFlowRecord> {
  return connection.model<SignInFlowRecord>('SignInFlow', signInFlowSchema);
}
