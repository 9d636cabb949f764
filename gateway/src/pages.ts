/**
 * The public pages the web build prerendered (web/src/prerender/entry.tsx writes web/dist/pages/ and its table,
 * pages.json): which document answers a path, with which status, and its bytes, plain, gzip or brotli.
 *
 * A visitor with a session gets the app's shell instead (web.ts decides), so a signed-in person never sees the
 * landing page flash before their dashboard. The help page is prerendered once per country: the person's pick
 * (the country cookie) or their browser's language puts theirs first. A path the app does not know is the
 * not-found page, with status 404. A browser with neither a session nor a consent cookie gets each page marked so
 * (`withNoCookieChoiceMark`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { NO_COOKIE_CHOICE_ATTRIBUTE, normalisePath, type PageTable } from '@haven/platform';
import { countryOfRequest } from '@haven/domain';

export type Encoding = 'br' | 'gzip' | 'identity';

/** One document, kept in memory: its bytes plain, and each compression made the first time a browser asks. */
export class PageDocument {
  private readonly encoded = new Map<Encoding, Buffer>();

  constructor(readonly plain: Buffer) {
    this.encoded.set('identity', plain);
  }

  bytes(encoding: Encoding): Buffer {
    let body = this.encoded.get(encoding);
    if (!body) {
      body =
        encoding === 'br'
          ? brotliCompressSync(this.plain, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9 } })
          : gzipSync(this.plain, { level: 9 });
      this.encoded.set(encoding, body);
    }
    return body;
  }
}

/** The document with the no-cookie-choice mark on its `<html>` element. */
export function withNoCookieChoiceMark(html: string): string {
  return html.replace(/<html\b/i, `<html ${NO_COOKIE_CHOICE_ATTRIBUTE}`);
}

/** A request's answer: the document, its status, and the request headers it depends on. */
export interface PageAnswer {
  document: PageDocument;
  status: 200 | 404;
  vary: string[];
}

export class PrerenderedPages {
  private readonly documents = new Map<string, PageDocument>();
  /** The same documents with the no-cookie-choice mark, each made the first time it is asked for. */
  private readonly markedDocuments = new Map<string, PageDocument>();
  private readonly appPaths: Set<string>;

  private constructor(
    private readonly table: PageTable,
    read: (file: string) => string,
    appOrigin: string,
  ) {
    this.appPaths = new Set(table.appPaths);
    const files = [
      ...Object.values(table.pages),
      ...Object.values(table.help.byCountry),
      table.help.noCountry,
      table.notFound,
      table.sitemap,
    ];
    for (const file of files) {
      this.documents.set(
        file,
        new PageDocument(Buffer.from(read(file).replaceAll(table.originPlaceholder, appOrigin))),
      );
    }
  }

  /** The build's prerendered pages with `appOrigin` written in, or null when the build made none. */
  static load(distDir: string, appOrigin: string): PrerenderedPages | null {
    const pagesDir = join(distDir, 'pages');
    const tableFile = join(pagesDir, 'pages.json');
    if (!existsSync(tableFile)) return null;
    const table = JSON.parse(readFileSync(tableFile, 'utf8')) as PageTable;
    return new PrerenderedPages(table, (file) => readFileSync(join(pagesDir, file), 'utf8'), appOrigin);
  }

  /** The public pages' sitemap, with the site's origin. */
  get sitemap(): PageDocument {
    return this.documents.get(this.table.sitemap)!;
  }

  private document(file: string, noCookieChoice: boolean): PageDocument {
    const document = this.documents.get(file)!;
    if (!noCookieChoice) return document;
    let marked = this.markedDocuments.get(file);
    if (!marked) {
      marked = new PageDocument(Buffer.from(withNoCookieChoiceMark(document.plain.toString('utf8'))));
      this.markedDocuments.set(file, marked);
    }
    return marked;
  }

  /** Whether the web app answers this path at all (else it is not found). */
  knows(path: string): boolean {
    return this.appPaths.has(normalisePath(path));
  }

  /**
   * The prerendered document for a visitor without a session, or null where the app's shell answers (a page that
   * is not prerendered, such as sign-in). `countryCookie` is the country cookie's value; `acceptLanguage` the
   * header's; `noCookieChoice` whether the browser sent no consent cookie (the document is then marked so).
   */
  answer(
    path: string,
    request: { countryCookie: string | null; acceptLanguage: string | undefined; noCookieChoice: boolean },
  ): PageAnswer | null {
    const normal = normalisePath(path);
    const { noCookieChoice } = request;
    if (normal === this.table.help.path) {
      const country = countryOfRequest(request.countryCookie, request.acceptLanguage);
      const file = (country && this.table.help.byCountry[country]) || this.table.help.noCountry;
      return { document: this.document(file, noCookieChoice), status: 200, vary: ['Cookie', 'Accept-Language'] };
    }
    const file = this.table.pages[normal];
    if (file) return { document: this.document(file, noCookieChoice), status: 200, vary: ['Cookie'] };
    if (!this.appPaths.has(normal))
      return { document: this.document(this.table.notFound, noCookieChoice), status: 404, vary: ['Cookie'] };
    return null;
  }
}

/** Whether an Accept-Encoding header names this encoding (browsers never send a q of zero for br or gzip). */
export function acceptsEncoding(acceptEncoding: string, encoding: string): boolean {
  return acceptEncoding.split(',').some((part) => part.split(';')[0]!.trim().toLowerCase() === encoding);
}

/** The best encoding a request accepts of brotli, then gzip, else the plain bytes. */
export function acceptedEncoding(acceptEncoding: string | undefined): Encoding {
  if (acceptsEncoding(acceptEncoding ?? '', 'br')) return 'br';
  if (acceptsEncoding(acceptEncoding ?? '', 'gzip')) return 'gzip';
  return 'identity';
}
