import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { type Logger } from '@haven/platform';
import { COUNTRY_COOKIE } from '@haven/domain';
import {
  acceptedEncoding,
  acceptsEncoding,
  withNoCookieChoiceMark,
  type PageAnswer,
  type PrerenderedPages,
} from './pages';
import { readCookie, visitorIdOf } from './session';

/** Hashes of the inline scripts in index.html (the theme bootstrap), so the CSP can allow exactly those. */
export function inlineScriptHashes(indexHtml: string): string[] {
  const hashes: string[] = [];
  for (const match of indexHtml.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
    hashes.push(`'sha256-${createHash('sha256').update(match[1]!).digest('base64')}'`);
  }
  return hashes;
}

export function readIndexHtml(distDir: string): string | null {
  const file = join(distDir, 'index.html');
  return existsSync(file) ? readFileSync(file, 'utf8') : null;
}

const HASHED_BUNDLE = /^\/assets\/[\w.-]+\.(js|css)$/;
const ONE_YEAR_MS = 365 * 24 * 3600 * 1000;

/**
 * The build's hashed bundles have brotli and gzip twins (`.br`, `.gz`, written by web/vite.config.ts): a browser gets
 * the best one it accepts, so the landing page's JavaScript travels at a quarter to a third of its size. The names
 * carry their content's hash, so they are cached for a year.
 */
export function precompressedBundles(distDir: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (!HASHED_BUNDLE.test(req.path)) return next();
    const accepted = req.header('accept-encoding') ?? '';
    const twins = [
      { encoding: 'br', file: join(distDir, `${req.path}.br`) },
      { encoding: 'gzip', file: join(distDir, `${req.path}.gz`) },
    ].filter(({ encoding }) => acceptsEncoding(accepted, encoding));
    const twin = twins.find(({ file }) => existsSync(file));
    if (!twin) return next();
    const { encoding } = twin;
    res.setHeader('content-encoding', encoding);
    res.setHeader('vary', 'Accept-Encoding');
    res.type(extname(req.path));
    res.sendFile(twin.file, { maxAge: ONE_YEAR_MS, immutable: true }, (error) => {
      if (error) next(error);
    });
  };
}

function sendPage(req: Request, res: Response, answer: PageAnswer): void {
  const encoding = acceptedEncoding(req.header('accept-encoding'));
  res.status(answer.status);
  // The service worker keeps only the shell for offline starts, never one page's HTML (web/public/sw.js).
  res.setHeader('x-haven-prerendered', 'true');
  res.setHeader('vary', [...answer.vary, 'Accept-Encoding'].join(', '));
  if (encoding !== 'identity') res.setHeader('content-encoding', encoding);
  res.type('html').send(answer.document.bytes(encoding));
}

/**
 * Says a page carries the no-cookie-choice mark (pages.ts), which holds for this browser at this moment only: the
 * service worker never keeps such a page as its offline shell (web/public/sw.js).
 */
export const NO_COOKIE_CHOICE_HEADER = 'x-haven-no-cookie-choice';

/**
 * Whether the request carries a consent cookie (a visitor id) under either of its names, secure or bare: the
 * cookie mode is not known here, and a cookie under the other mode's name only costs the page the one request it
 * would have made without the mark.
 */
function hasConsentCookie(req: Request): boolean {
  return visitorIdOf(req, true) !== null || visitorIdOf(req, false) !== null;
}

export interface WebPages {
  /** The app's shell, index.html: every page the build did not prerender, and every page for a signed-in visitor. */
  indexHtml: string | null;
  /** The build's prerendered public pages, when it made them. */
  prerendered: PrerenderedPages | null;
  /** Whether the request carries a valid session (the app's shell then answers, never a signed-out page). */
  hasSession: (req: Request) => boolean;
}

/**
 * Serves the built web app. A visitor without a session gets the prerendered page where there is one (the public
 * pages, the help page with their country first, the not-found page with status 404); otherwise index.html, and
 * the client router decides. A browser with neither a session nor a consent cookie gets either marked (pages.ts,
 * `withNoCookieChoiceMark`). HTML is revalidated on every visit; the hashed bundles are cached for a year.
 */
export function serveWeb(app: Express, distDir: string, pages: WebPages, log: Logger): void {
  const { indexHtml, prerendered, hasSession } = pages;
  if (indexHtml === null) {
    log.warn({ distDir }, 'web app not built (run `npm run -w web build`); only /api and /graphql are served');
    return;
  }
  const markedIndexHtml = withNoCookieChoiceMark(indexHtml);
  app.use(precompressedBundles(distDir));
  app.use(
    express.static(distDir, {
      index: false,
      maxAge: '1h',
      // Hashed names change with their content: a year, never revalidated (a browser without gzip gets these).
      setHeaders: (res, path) => {
        if (/[\\/]assets[\\/][\w.-]+$/.test(path))
          res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      },
    }),
  );
  if (prerendered) {
    app.get('/sitemap.xml', (req, res) => {
      res.setHeader('cache-control', 'no-cache');
      res.type('application/xml').send(prerendered.sitemap.bytes('identity'));
    });
  }
  app.get(/^(?!\/(api|graphql|hooks)(\/|$)).*/, (req, res) => {
    res.setHeader('cache-control', 'no-cache');
    const signedIn = hasSession(req);
    // Neither a session nor a consent cookie: the server has no cookie choice for this browser, and the page says so.
    const noCookieChoice = !signedIn && !hasConsentCookie(req);
    if (noCookieChoice) res.setHeader(NO_COOKIE_CHOICE_HEADER, 'true');
    if (prerendered) {
      const answer = signedIn
        ? null
        : prerendered.answer(req.path, {
            countryCookie: readCookie(req.headers.cookie, COUNTRY_COOKIE),
            acceptLanguage: req.header('accept-language'),
            noCookieChoice,
          });
      if (answer) return sendPage(req, res, answer);
      // A signed-in visitor's unknown address: the shell draws the not-found page, and the status says so.
      if (!prerendered.knows(req.path)) res.status(404);
    }
    res.setHeader('vary', 'Cookie');
    res.type('html').send(noCookieChoice ? markedIndexHtml : indexHtml);
  });
}
