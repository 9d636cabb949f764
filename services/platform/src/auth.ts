import jwt from 'jsonwebtoken';

/** What a session token proves: who the user is, and which session (so it can be revoked). */
export interface SessionClaims {
  userId: string;
  sessionId: string;
}

const issuer = 'haven';
const audience = 'haven';
// Asymmetric: only the user service holds the private key; everyone else verifies.
const algorithm = 'ES256';

export function signSessionToken(claims: SessionClaims, privateKey: string, ttlSeconds: number): string {
  return jwt.sign({}, privateKey, {
    algorithm,
    issuer,
    audience,
    subject: claims.userId,
    jwtid: claims.sessionId,
    expiresIn: ttlSeconds,
  });
}

/** Returns the claims of a valid, unexpired token, or null for anything else. */
export function verifySessionToken(token: string, publicKey: string): SessionClaims | null {
  try {
    const payload = jwt.verify(token, publicKey, { algorithms: [algorithm], issuer, audience });
    if (typeof payload === 'string' || !payload.sub || !payload.jti) return null;
    return { userId: payload.sub, sessionId: payload.jti };
  } catch {
    return null;
  }
}

export function bearerToken(authorization: string | undefined): string | null {
  const match = /^Bearer (.+)$/i.exec(authorization ?? '');
  return match?.[1] ?? null;
}

/**
 * Subgraphs tell the gateway to set or clear the session cookie through this
 * response header; the gateway never forwards it to the browser.
 */
export const sessionHeader = 'x-haven-session';
export const correlationHeader = 'x-correlation-id';
