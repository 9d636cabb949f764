import { createHash, randomBytes } from 'node:crypto';

/** How long an e-mail verification link stays valid. */
export const verificationTtlMs = 24 * 60 * 60 * 1000;

export interface VerificationToken {
  /** Sent to the user, never stored. */
  token: string;
  /** Stored, so a database leak does not leak working links. */
  tokenHash: string;
  expiresAt: Date;
}

export function hashVerificationToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newVerificationToken(now: Date): VerificationToken {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashVerificationToken(token), expiresAt: new Date(now.getTime() + verificationTtlMs) };
}
