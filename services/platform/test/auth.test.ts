import { createHmac, generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { bearerToken, signSessionToken, verifySessionToken } from '../src/auth';

function es256Pair() {
  return generateKeyPairSync('ec', {
    namedCurve: 'P-256',
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
}

const keys = es256Pair();
const claims = { userId: 'user-1', sessionId: 'session-1' };

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A token forged by hand, so the test does not depend on what a JWT library is willing to sign. */
function forged(header: object, payload: object, sign: (input: string) => string): string {
  const input = `${base64url(header)}.${base64url(payload)}`;
  return `${input}.${sign(input)}`;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const validPayload = () => ({
  sub: 'user-1',
  jti: 'session-1',
  iss: 'haven',
  aud: 'haven',
  iat: nowSeconds(),
  exp: nowSeconds() + 600,
});

describe('session tokens', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('round-trip: what is signed with the private key verifies with the public key', () => {
    const token = signSessionToken(claims, keys.privateKey, 3600);
    // The token also says when it was issued (a recent sign-in is what deletion asks for).
    expect(verifySessionToken(token, keys.publicKey)).toEqual({ ...claims, issuedAt: expect.any(Number) });
  });

  it('are ES256, issued by and for haven, and expire after the ttl', () => {
    const token = signSessionToken(claims, keys.privateKey, 3600);
    const decoded = jwt.decode(token, { complete: true });
    expect(decoded?.header.alg).toBe('ES256');
    const payload = decoded?.payload as jwt.JwtPayload;
    expect(payload).toMatchObject({ sub: 'user-1', jti: 'session-1', iss: 'haven', aud: 'haven' });
    expect(payload.exp! - payload.iat!).toBe(3600);
  });

  it('stop verifying once the ttl has passed', () => {
    jest.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') });
    const token = signSessionToken(claims, keys.privateKey, 60);
    jest.setSystemTime(new Date('2026-01-01T00:00:59Z'));
    expect(verifySessionToken(token, keys.publicKey)).toEqual({
      ...claims,
      issuedAt: Date.parse('2026-01-01T00:00:00Z') / 1000,
    });
    jest.setSystemTime(new Date('2026-01-01T00:01:01Z'));
    expect(verifySessionToken(token, keys.publicKey)).toBeNull();
  });

  it('reject an already expired token', () => {
    const token = jwt.sign({}, keys.privateKey, {
      algorithm: 'ES256',
      issuer: 'haven',
      audience: 'haven',
      subject: 'user-1',
      jwtid: 'session-1',
      expiresIn: -10,
    });
    expect(verifySessionToken(token, keys.publicKey)).toBeNull();
  });

  it('reject a token signed by another key', () => {
    const other = es256Pair();
    const token = signSessionToken(claims, other.privateKey, 3600);
    expect(verifySessionToken(token, keys.publicKey)).toBeNull();
  });

  it('reject a token whose payload was altered after signing', () => {
    const [header, , signature] = signSessionToken(claims, keys.privateKey, 3600).split('.');
    const tampered = `${header}.${base64url({ ...validPayload(), sub: 'admin' })}.${signature}`;
    expect(verifySessionToken(tampered, keys.publicKey)).toBeNull();
  });

  it('reject an HS256 token keyed with the public key (algorithm confusion)', () => {
    const token = forged({ alg: 'HS256', typ: 'JWT' }, validPayload(), (input) =>
      createHmac('sha256', keys.publicKey).update(input).digest('base64url'),
    );
    expect(verifySessionToken(token, keys.publicKey)).toBeNull();
  });

  it('reject an unsigned token (alg "none")', () => {
    const token = forged({ alg: 'none', typ: 'JWT' }, validPayload(), () => '');
    expect(verifySessionToken(token, keys.publicKey)).toBeNull();
  });

  it.each([
    ['another issuer', { issuer: 'someone-else', audience: 'haven' }],
    ['another audience', { issuer: 'haven', audience: 'someone-else' }],
    ['no issuer or audience', {}],
  ])('reject a token with %s', (_name, options) => {
    const token = jwt.sign({}, keys.privateKey, {
      algorithm: 'ES256',
      subject: 'user-1',
      jwtid: 'session-1',
      expiresIn: 600,
      ...options,
    });
    expect(verifySessionToken(token, keys.publicKey)).toBeNull();
  });

  it('reject a token that does not name both the user and the session', () => {
    const common = { algorithm: 'ES256', issuer: 'haven', audience: 'haven', expiresIn: 600 } as const;
    expect(
      verifySessionToken(jwt.sign({}, keys.privateKey, { ...common, jwtid: 'session-1' }), keys.publicKey),
    ).toBeNull();
    expect(
      verifySessionToken(jwt.sign({}, keys.privateKey, { ...common, subject: 'user-1' }), keys.publicKey),
    ).toBeNull();
  });

  it('reject garbage instead of throwing', () => {
    for (const junk of ['', 'not-a-token', 'a.b.c', `${base64url({ alg: 'ES256' })}..`]) {
      expect(verifySessionToken(junk, keys.publicKey)).toBeNull();
    }
  });
});

describe('bearerToken', () => {
  it('reads the token of a Bearer header, whatever the scheme case', () => {
    expect(bearerToken('Bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerToken('bearer abc.def.ghi')).toBe('abc.def.ghi');
    expect(bearerToken('BEARER abc')).toBe('abc');
  });

  it('returns null without a Bearer token', () => {
    expect(bearerToken(undefined)).toBeNull();
    expect(bearerToken('')).toBeNull();
    expect(bearerToken('Bearer')).toBeNull();
    expect(bearerToken('Bearer ')).toBeNull();
    expect(bearerToken('Basic dXNlcjpwYXNz')).toBeNull();
    expect(bearerToken('Bearerabc')).toBeNull();
  });
});
