import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Authenticated encryption, the one way Haven encrypts anything it stores or publishes: AES-256-GCM from Node's
 * own crypto, a fresh 96-bit nonce each time, and the tag checked on opening. A sealed value is its prefix (which
 * names what sealed it and the format's version) and base64url of nonce, ciphertext and tag. `context` is bound in
 * as associated data: a value sealed for one context (a person's id) does not open in another.
 */
const nonceBytes = 12;
const tagBytes = 16;
export const sealingKeyBytes = 32;

export function sealBytes(key: Buffer, prefix: string, plain: Buffer, context = ''): string {
  const nonce = randomBytes(nonceBytes);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  if (context) cipher.setAAD(Buffer.from(context, 'utf8'));
  const sealed = Buffer.concat([nonce, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  return prefix + sealed.toString('base64url');
}

/** The bytes a sealed value carries; null when it is not one of `prefix`, was sealed under another key or context, or was altered. */
export function openBytes(key: Buffer, prefix: string, sealed: string, context = ''): Buffer | null {
  if (!sealed.startsWith(prefix)) return null;
  const bytes = Buffer.from(sealed.slice(prefix.length), 'base64url');
  if (bytes.length <= nonceBytes + tagBytes) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, nonceBytes));
    if (context) decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(bytes.subarray(bytes.length - tagBytes));
    return Buffer.concat([decipher.update(bytes.subarray(nonceBytes, bytes.length - tagBytes)), decipher.final()]);
  } catch {
    return null;
  }
}
