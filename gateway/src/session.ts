import { isVisitorId, verifySessionToken } from '@haven/platform';
import jwt from 'jsonwebtoken';
import type { Request } from 'express';

export const sessionCookieName = 'haven_session';

/**
 * A first-party cookie's name. Secure cookies (production, https) carry the `__Host-` prefix, which browsers
 * accept only from the host itself, Secure, with `Path=/` and no `Domain`: a sibling subdomain or a plain-http
 * page cannot plant or overwrite one. Over plain http (development, compose on localhost) a browser refuses a
 * `__Host-` cookie without Secure, so the name stays bare there. Only the name of the current mode is read.
 */
export function cookieName(name: string, secure: boolean): string {
  return secure ? `__Host-${name}` : name;
}

/** The session token from the cookie, if its signature and expiry check out. */
export function sessionTokenOf(req: Request, publicKey: string, secure: boolean): string | null {
  const token = readCookie(req.headers.cookie, cookieName(sessionCookieName, secure));
  return token && verifySessionToken(token, publicKey) ? token : null;
}

export function readCookie(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key !== name) continue;
    try {
      return decodeURIComponent(value.join('='));
    } catch {
      return null; // a mangled cookie signs nobody in, and breaks nothing
    }
  }
  return null;
}

/** Set-Cookie for a new session (token) or for signing out (null). */
export function sessionCookie(token: string | null, secure: boolean): string {
  const attributes = ['Path=/', 'HttpOnly', 'SameSite=Lax'];
  if (secure) attributes.push('Secure');
  const name = cookieName(sessionCookieName, secure);
  if (token === null) return [`${name}=`, ...attributes, 'Max-Age=0'].join('; ');
  const decoded = jwt.decode(token);
  const exp = decoded && typeof decoded === 'object' ? decoded.exp : undefined;
  const maxAge = exp ? Math.max(0, exp - Math.floor(Date.now() / 1000)) : undefined;
  return [`${name}=${encodeURIComponent(token)}`, ...attributes, ...(maxAge ? [`Max-Age=${maxAge}`] : [])].join('; ');
}

/**
 * The consent cookie: a random visitor id under which a signed-out browser's cookie choice is kept (the
 * compliance service picks the id and asks for the cookie; the gateway sets it). Strictly necessary: it
 * stores the choice itself. httpOnly and SameSite=Lax like the session; a year, then the banner asks again.
 */
export const visitorCookieName = 'haven_consent';
export const visitorCookieMaxAgeSeconds = 365 * 24 * 60 * 60;

/** The visitor id of the consent cookie, when it is one (a UUID); anything else counts as no cookie. */
export function visitorIdOf(req: Request, secure: boolean): string | null {
  const value = readCookie(req.headers.cookie, cookieName(visitorCookieName, secure));
  return isVisitorId(value) ? value : null;
}

/** Set-Cookie for a visitor id, or for removing the cookie (null). */
export function visitorCookie(visitorId: string | null, secure: boolean): string {
  const attributes = ['Path=/', 'HttpOnly', 'SameSite=Lax'];
  if (secure) attributes.push('Secure');
  const name = cookieName(visitorCookieName, secure);
  if (visitorId === null) return [`${name}=`, ...attributes, 'Max-Age=0'].join('; ');
  return [`${name}=${visitorId}`, ...attributes, `Max-Age=${visitorCookieMaxAgeSeconds}`].join('; ');
}
