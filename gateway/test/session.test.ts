import { signSessionToken } from '@haven/platform';
import jwt from 'jsonwebtoken';
import { generateKeyPairSync } from 'node:crypto';
import type { Request } from 'express';
import { bindingCookie, bindingOf } from '../src/rest/sign-in';
import { cookieName, readCookie, sessionCookie, sessionCookieName, sessionTokenOf } from '../src/session';

const attributesOf = (setCookie: string) => setCookie.split('; ').slice(1);

describe('readCookie', () => {
  it('finds one cookie among several', () => {
    expect(readCookie('theme=dark; haven_session=abc.def.ghi; consent=1', 'haven_session')).toBe('abc.def.ghi');
    expect(readCookie('haven_session=first', 'haven_session')).toBe('first');
  });

  it('matches the whole name, not a cookie whose name merely contains it', () => {
    expect(readCookie('xhaven_session=evil; haven_session_old=stale; haven_session=good', 'haven_session')).toBe(
      'good',
    );
  });

  it('decodes URL-encoded values and keeps "=" inside a value', () => {
    expect(readCookie('name=J%C3%BCrgen%20K; other=1', 'name')).toBe('Jürgen K');
    expect(readCookie('token=YWJj==; x=1', 'token')).toBe('YWJj==');
  });

  it('tolerates missing spaces and an empty value', () => {
    expect(readCookie('a=1;haven_session=tok;b=2', 'haven_session')).toBe('tok');
    expect(readCookie('haven_session=', 'haven_session')).toBe('');
  });

  it('returns null when the cookie or the header is missing', () => {
    expect(readCookie('theme=dark', 'haven_session')).toBeNull();
    expect(readCookie('', 'haven_session')).toBeNull();
    expect(readCookie(undefined, 'haven_session')).toBeNull();
  });
});

describe('sessionCookie', () => {
  const now = new Date('2026-02-03T04:05:06Z');

  beforeEach(() => {
    jest.useFakeTimers({ now });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  const token = (expiresIn: number) => jwt.sign({ sub: 'user-1' }, 'test-secret', { expiresIn });

  it('sets the token in an httpOnly, SameSite=Lax cookie for the whole site', () => {
    const value = token(3600);
    const cookie = sessionCookie(value, false);
    expect(cookie.startsWith(`${sessionCookieName}=`)).toBe(true);
    expect(sessionCookieName).toBe('haven_session');
    expect(attributesOf(cookie)).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'SameSite=Lax']));
    // What the browser sends back is the token itself.
    expect(readCookie(cookie.split('; ')[0], sessionCookieName)).toBe(value);
  });

  it('is Secure only when asked', () => {
    expect(attributesOf(sessionCookie(token(3600), true))).toContain('Secure');
    expect(attributesOf(sessionCookie(token(3600), false))).not.toContain('Secure');
  });

  it("lives as long as the token: Max-Age is the seconds until the token's exp", () => {
    expect(attributesOf(sessionCookie(token(3600), false))).toContain('Max-Age=3600');
    expect(attributesOf(sessionCookie(token(7 * 24 * 3600), false))).toContain('Max-Age=604800');
    const signedEarlier = token(3600);
    jest.setSystemTime(new Date(now.getTime() + 600_000));
    expect(attributesOf(sessionCookie(signedEarlier, false))).toContain('Max-Age=3000');
  });

  it('clears the cookie on sign-out with Max-Age=0 and the same attributes', () => {
    const cleared = sessionCookie(null, true);
    expect(cleared.split('; ')[0]).toBe('__Host-haven_session=');
    expect(attributesOf(cleared)).toEqual(
      expect.arrayContaining(['Path=/', 'HttpOnly', 'SameSite=Lax', 'Secure', 'Max-Age=0']),
    );
    expect(attributesOf(sessionCookie(null, false))).not.toContain('Secure');
  });
});

describe('__Host- cookie names in production', () => {
  const requestWithCookie = (cookie: string) => ({ headers: { cookie } }) as unknown as Request;
  const { privateKey, publicKey } = generateKeyPairSync('ec', {
    namedCurve: 'P-256',
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });

  it('prefixes every first-party cookie when Secure, and keeps the bare name over plain http', () => {
    expect(cookieName('haven_session', true)).toBe('__Host-haven_session');
    expect(cookieName('haven_session', false)).toBe('haven_session');
  });

  it('gives the session and the sign-in binding what __Host- requires: Secure, Path=/, no Domain', () => {
    const session = signSessionToken({ userId: 'user-1', sessionId: 'session-1' }, privateKey, 3600);
    for (const cookie of [
      sessionCookie(session, true),
      sessionCookie(null, true),
      bindingCookie('b'.repeat(43), true),
    ]) {
      expect(cookie).toMatch(/^__Host-haven_(session|signin)=/);
      expect(attributesOf(cookie)).toEqual(expect.arrayContaining(['Path=/', 'Secure', 'HttpOnly', 'SameSite=Lax']));
      expect(cookie).not.toMatch(/Domain=/i);
    }
    expect(bindingCookie('b'.repeat(43), false)).toMatch(
      /^haven_signin=b+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=600$/,
    );
  });

  it('reads only the name of its mode: a bare cookie planted beside a Secure site signs nobody in', () => {
    const session = signSessionToken({ userId: 'user-1', sessionId: 'session-1' }, privateKey, 3600);
    expect(sessionTokenOf(requestWithCookie(`__Host-haven_session=${session}`), publicKey, true)).toBe(session);
    expect(sessionTokenOf(requestWithCookie(`haven_session=${session}`), publicKey, true)).toBeNull();
    expect(sessionTokenOf(requestWithCookie(`haven_session=${session}`), publicKey, false)).toBe(session);
    const binding = 'c'.repeat(43);
    expect(bindingOf(requestWithCookie(`__Host-haven_signin=${binding}`), true)).toBe(binding);
    expect(bindingOf(requestWithCookie(`haven_signin=${binding}`), true)).toBeNull();
  });
});
