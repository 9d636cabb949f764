import { randomBytes } from 'node:crypto';
import { mailTokenKey, mailTokenSealer } from '../src/mail-tokens';

const token = randomBytes(32).toString('base64url');
const sealer = mailTokenSealer(mailTokenKey({ SERVICE_SECRET: 'the services’ own secret, long enough' }));

/** Every way a token could be written down: as is, and its bytes in hex and base64 of either alphabet. */
function encodingsOf(value: string): string[] {
  const bytes = Buffer.from(value, 'base64url');
  return [value, bytes.toString('hex'), bytes.toString('base64'), Buffer.from(value).toString('base64')];
}

test('the mailer opens what the issuer sealed', () => {
  expect(sealer.open(sealer.seal(token))).toBe(token);
});

test('a sealed token shows the token in no encoding, and sealing twice gives two different values', () => {
  const first = sealer.seal(token);
  const second = sealer.seal(token);
  expect(first).not.toBe(second);
  for (const sealed of [first, second]) {
    const readable = [sealed, Buffer.from(sealed.slice(3), 'base64url').toString('latin1')];
    for (const encoding of encodingsOf(token)) {
      for (const text of readable) expect(text).not.toContain(encoding);
    }
  }
});

test('a value sealed under another secret, or altered in any byte, opens to nothing', () => {
  const sealed = sealer.seal(token);
  const otherSecret = mailTokenSealer(mailTokenKey({ SERVICE_SECRET: 'another secret, also long enough' }));
  expect(otherSecret.open(sealed)).toBeNull();

  const bytes = Buffer.from(sealed.slice(3), 'base64url');
  for (const index of [0, 12, bytes.length - 1]) {
    const altered = Buffer.from(bytes);
    altered[index] = altered[index]! ^ 1;
    expect(sealer.open(`v1.${altered.toString('base64url')}`)).toBeNull();
  }
});

test('what is not a sealed token opens to nothing: the token itself, an empty or truncated value', () => {
  expect(sealer.open(token)).toBeNull();
  expect(sealer.open('')).toBeNull();
  expect(sealer.open('v1.')).toBeNull();
  expect(sealer.open(sealer.seal(token).slice(0, 30))).toBeNull();
});

test('the key is the same for every service holding the secret, and another without one', () => {
  const secret = { SERVICE_SECRET: 'the services’ own secret, long enough' };
  expect(mailTokenKey(secret).equals(mailTokenKey({ ...secret }))).toBe(true);
  expect(mailTokenKey({}).equals(mailTokenKey(secret))).toBe(false);
  expect(mailTokenKey(secret)).toHaveLength(32);
});
