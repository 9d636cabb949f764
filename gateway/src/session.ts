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
