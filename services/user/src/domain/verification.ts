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

/** What the user reads when a link worked, or did not (expired, used, mistyped, forged: one answer). */
export const verificationMessages = {
  verified: 'Your email has been successfully verified!',
  invalid: 'This verification link is invalid or has expired. Please ask for a new one below.',
  missing: 'Invalid verification link',
  // The same whether or not the address has an account, or is already verified.
  resent:
    'If that address has an account waiting to be verified, a new verification link is on its way. Please check your inbox.',
} as const;

/** A token as it arrives in a link: trimmed; null when there is nothing usable (no I/O is done for it). */
export function tokenFromLink(raw: string | null | undefined): string | null {
  const token = (raw ?? '').trim();
  // Our tokens are 43 base64url characters; anything far from that cannot be one.
  return token === '' || token.length > 200 ? null : token;
}

/** Whether a stored verification still accepts its token at `now`. */
export function verificationUsable(stored: { expiresAt: Date } | null | undefined, now: Date): boolean {
  return stored != null && stored.expiresAt.getTime() > now.getTime();
}
