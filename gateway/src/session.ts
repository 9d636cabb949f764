import { verifySessionToken } from '@haven/platform';
import jwt from 'jsonwebtoken';
import type { Request } from 'express';

export const sessionCookieName = 'haven_session';

/** The session token from the cookie, if its signature and expiry check out. */
export function sessionTokenOf(req: Request, publicKey: string): string | null {
  const token = readCookie(req.headers.cookie, sessionCookieName);
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
  if (token === null) return [`${sessionCookieName}=`, ...attributes, 'Max-Age=0'].join('; ');
  const decoded = jwt.decode(token);
  const exp = decoded && typeof decoded === 'object' ? decoded.exp : undefined;
  const maxAge = exp ? Math.max(0, exp - Math.floor(Date.now() / 1000)) : undefined;
  return [
    `${sessionCookieName}=${encodeURIComponent(token)}`,
    ...attributes,
    ...(maxAge ? [`Max-Age=${maxAge}`] : []),
  ].join('; ');
}

/**
 * The consent cookie: a random visitor id under which a signed-out browser's cookie choice is kept (the
 * compliance service picks the id and asks for the cookie; the gateway sets it). Strictly necessary: it
 * stores the choice itself. httpOnly and SameSite=Lax like the session; a year, then the banner asks again.
 */
export const visitorCookieName = 'haven_consent';
export const visitorCookieMaxAgeSeconds = 365 * 24 * 60 * 60;

/** The visitor id of the consent cookie, when it is one (a UUID); anything else counts as no cookie. */
export function visitorIdOf(req: Request): string | null {
  const value = readCookie(req.headers.cookie, visitorCookieName);
  return value && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value) ? value : null;
}

/** Set-Cookie for a visitor id, or for removing the cookie (null). */
export function visitorCookie(visitorId: string | null, secure: boolean): string {
  const attributes = ['Path=/', 'HttpOnly', 'SameSite=Lax'];
  if (secure) attributes.push('Secure');
  if (visitorId === null) return [`${visitorCookieName}=`, ...attributes, 'Max-Age=0'].join('; ');
  return [`${visitorCookieName}=${visitorId}`, ...attributes, `Max-Age=${visitorCookieMaxAgeSeconds}`].join('; ');
}
