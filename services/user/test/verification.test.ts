import { createHash } from 'node:crypto';
import { hashVerificationToken, newVerificationToken } from '../src/domain/verification';

const now = new Date('2026-03-04T05:06:07.890Z');

describe('verification tokens', () => {
  it('are URL-safe and carry 256 random bits', () => {
    const { token } = newVerificationToken(now);
    // Safe in a query string without escaping: base64url alphabet, no padding.
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(encodeURIComponent(token)).toBe(token);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
  });

  it('differ every time', () => {
    const tokens = new Set(Array.from({ length: 50 }, () => newVerificationToken(now).token));
    expect(tokens.size).toBe(50);
  });

  it('store the sha256 hex of the token, never the token itself', () => {
    const { token, tokenHash } = newVerificationToken(now);
    expect(tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(tokenHash).not.toContain(token);
    // The hash a link's token is looked up by is the one that was stored.
    expect(hashVerificationToken(token)).toBe(tokenHash);
  });

  it('hash with standard sha256 (FIPS 180-2 test vector)', () => {
    expect(hashVerificationToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('expire exactly 24 hours after now, without changing now', () => {
    const before = now.getTime();
    const { expiresAt } = newVerificationToken(now);
    expect(expiresAt.toISOString()).toBe('2026-03-05T05:06:07.890Z');
    expect(now.getTime()).toBe(before);
  });
});
