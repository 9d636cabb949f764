import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Express } from 'express';
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

/** Serves the built web app; every non-API path gets index.html and the client router decides. */
export function serveWeb(app: Express, distDir: string, indexHtml: string | null, log: Logger): void {
  if (indexHtml === null) {
    log.warn({ distDir }, 'web app not built (run `npm run -w web build`); only /api and /graphql are served');
    return;
  }
  app.use(express.static(distDir, { index: false, maxAge: '1h' }));
  app.get(/^(?!\/(api|graphql|hooks)(\/|$)).*/, (_req, res) => {
    res.setHeader('cache-control', 'no-cache');
    res.type('html').send(indexHtml);
  });
}
