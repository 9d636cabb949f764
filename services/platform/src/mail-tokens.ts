import { hkdfSync } from 'node:crypto';
import { openBytes, sealBytes, sealingKeyBytes } from './sealing';

/**
 * A link's single-use token (verification, password reset, e-mail change, newsletter confirmation) travels
 * from the service that issues it to the mailer inside an event. Events stay on Kafka for days, in dead-letter
 * topics and in backups; the token is only ever stored there sealed: AES-256-GCM under a key derived from the
 * services' own secret, which neither the gateway nor a reader of Kafka or a backup holds. The issuer keeps only
 * the token's hash.
 */
export interface MailTokenSealer {
  /** The token, encrypted and authenticated: `v1.` and base64url of nonce, ciphertext and tag. */
  seal(token: string): string;
  /** The token a sealed value carries; null when it was sealed under another key, or altered. */
  open(sealed: string): string | null;
}

const version = 'v1.';
const developmentSecret = 'haven-development-mail-token-key';

/** The sealing key: HKDF-SHA256 of SERVICE_SECRET (a development secret without one; production requires it). */
export function mailTokenKey(config: { SERVICE_SECRET?: string }): Buffer {
  const secret = config.SERVICE_SECRET ?? developmentSecret;
  return Buffer.from(hkdfSync('sha256', secret, 'haven', 'haven:mail-link-tokens:v1', 32));
}

export function mailTokenSealer(key: Buffer): MailTokenSealer {
  if (key.length !== sealingKeyBytes) throw new Error('a mail token key is 32 bytes');
  return {
    seal: (token) => sealBytes(key, version, Buffer.from(token, 'utf8')),
    open: (sealed) => openBytes(key, version, sealed)?.toString('utf8') ?? null,
  };
}

/** A link as an event carries it to the mailer. */
export interface LinkForMailer {
  sealedToken: string;
  /** Only in events published before tokens were sealed. */
  token: string;
}

/**
 * The token of an event's link: opened from its seal, or as an older event carried it; null without a link, or
 * when the seal does not open (sealed before SERVICE_SECRET was rotated: the mail is skipped, and the person asks
 * for a new link as they would for an expired one).
 */
export function linkTokenOf(
  link: LinkForMailer | undefined,
  sealer: MailTokenSealer,
  log: { warn(details: object, message: string): void },
): string | null {
  if (!link) return null;
  if (!link.sealedToken) return link.token || null;
  const token = sealer.open(link.sealedToken);
  if (token === null)
    log.warn({}, 'a link’s sealed token did not open (another SERVICE_SECRET?); its e-mail is not sent');
  return token;
}
