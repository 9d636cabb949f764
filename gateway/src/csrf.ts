import type { NextFunction, Request, Response } from 'express';

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Cookie sessions need CSRF protection: a state-changing request from a
 * browser must come from our own origin. Browsers send Origin and
 * Sec-Fetch-Site on such requests; clients that send neither carry no ambient cookie.
 */
export function sameOriginOnly(allowedOrigins: string[]) {
  const allowed = new Set(allowedOrigins);
  return (req: Request, res: Response, next: NextFunction) => {
    if (!unsafeMethods.has(req.method)) return next();
    const origin = req.header('origin');
    const site = req.header('sec-fetch-site');
    const ownOrigin = `${req.protocol}://${req.header('host')}`;
    const originOk = !origin || allowed.has(origin) || origin === ownOrigin;
    const siteOk = !site || site === 'same-origin' || site === 'none' || (site === 'same-site' && originOk);
    if (originOk && siteOk) return next();
    res.status(403).json({ message: 'Cross-site request refused' });
  };
}
