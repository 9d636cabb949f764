import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from '@haven/platform';

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
 * The build's hashed bundles have gzip twins (`.js.gz`, written by web/vite.config.ts): a browser that
 * accepts gzip gets the twin, so the landing page's JavaScript travels at a third of its size. The names
 * carry their content's hash, so they are cached for a year.
 */
export function precompressedBundles(distDir: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (!HASHED_BUNDLE.test(req.path) || !/\bgzip\b/.test(req.header('accept-encoding') ?? '')) return next();
    const twin = join(distDir, `${req.path}.gz`);
    if (!existsSync(twin)) return next();
    res.setHeader('content-encoding', 'gzip');
    res.setHeader('vary', 'Accept-Encoding');
    res.type(extname(req.path));
    res.sendFile(twin, { maxAge: ONE_YEAR_MS, immutable: true }, (error) => {
      if (error) next(error);
    });
  };
}

/** Serves the built web app; every non-API path gets index.html and the client router decides. */
export function serveWeb(app: Express, distDir: string, indexHtml: string | null, log: Logger): void {
  if (indexHtml === null) {
    log.warn({ distDir }, 'web app not built (run `npm run -w web build`); only /api and /graphql are served');
    return;
  }
  app.use(precompressedBundles(distDir));
  app.use(express.static(distDir, { index: false, maxAge: '1h' }));
  app.get(/^(?!\/(api|graphql|hooks)(\/|$)).*/, (_req, res) => {
    res.setHeader('cache-control', 'no-cache');
    res.type('html').send(indexHtml);
  });
}
