import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import express from 'express';
import { acceptedEncoding } from '../src/pages';
import { inlineScriptHashes, precompressedBundles } from '../src/web';

const sha256 = (body: string) => `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`;

describe('inlineScriptHashes', () => {
  it('hashes the exact body of each inline script, whitespace included, as CSP expects', () => {
    const theme = "\n      (function () { document.documentElement.classList.add('dark'); })();\n    ";
    const other = 'window.ready = true;';
    const html = `<!doctype html><html><head>
    <script>${theme}</script>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <script type="text/javascript">${other}</script>
    </head><body><div id="root"></div><script src="/late.js"></script></body></html>`;
    expect(inlineScriptHashes(html)).toEqual([sha256(theme), sha256(other)]);
  });

  it('matches an independently known digest', () => {
    // sha256("") in base64, the CSP form of an empty inline script.
    expect(inlineScriptHashes('<script></script>')).toEqual(["'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"]);
  });

  it('ignores external scripts and pages without scripts', () => {
    expect(inlineScriptHashes('<script src="/a.js"></script><script defer src="/b.js"></script>')).toEqual([]);
    expect(inlineScriptHashes('<p>no scripts</p>')).toEqual([]);
  });

  it('hashes non-ASCII script text as UTF-8', () => {
    const body = "console.log('Zoë 😊')";
    expect(inlineScriptHashes(`<script>${body}</script>`)).toEqual([sha256(body)]);
  });
});

describe('precompressedBundles', () => {
  const code = 'console.log("hello from a bundle");'.repeat(50);
  let baseUrl = '';
  let close: () => void = () => undefined;

  beforeAll(async () => {
    const dist = mkdtempSync(join(tmpdir(), 'haven-web-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'assets', 'index-abc.js'), code);
    writeFileSync(join(dist, 'assets', 'index-abc.js.gz'), gzipSync(code));
    writeFileSync(join(dist, 'assets', 'index-abc.js.br'), brotliCompressSync(code));
    writeFileSync(join(dist, 'assets', 'gzipped-abc.js'), code);
    writeFileSync(join(dist, 'assets', 'gzipped-abc.js.gz'), gzipSync(code));
    writeFileSync(join(dist, 'assets', 'plain-abc.js'), code);
    const app = express();
    app.use(precompressedBundles(dist));
    app.use(express.static(dist));
    await new Promise<void>((resolve) => {
      const server = app.listen(0, '127.0.0.1', () => {
        const address = server.address();
        baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
        close = () => server.close();
        resolve();
      });
    });
  });

  afterAll(() => close());

  it('serves the brotli twin, as JavaScript, cached for a year, to a browser that accepts brotli', async () => {
    const response = await fetch(`${baseUrl}/assets/index-abc.js`, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('content-type')).toMatch(/^(application|text)\/javascript/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('vary')).toBe('Accept-Encoding');
    expect(await response.text()).toBe(code);
  });

  it('serves the gzip twin where gzip is the best accepted, or where there is no brotli twin', async () => {
    for (const [path, accepted] of [
      ['/assets/index-abc.js', 'gzip, deflate'],
      ['/assets/gzipped-abc.js', 'gzip, deflate, br'],
    ]) {
      const response = await fetch(`${baseUrl}${path}`, { headers: { 'accept-encoding': accepted! } });
      expect(response.headers.get('content-encoding')).toBe('gzip');
      expect(await response.text()).toBe(code);
    }
  });

  it('serves the plain file when gzip is not accepted or there is no twin', async () => {
    const identity = await fetch(`${baseUrl}/assets/index-abc.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(identity.headers.get('content-encoding')).toBeNull();
    expect(await identity.text()).toBe(code);
    const noTwin = await fetch(`${baseUrl}/assets/plain-abc.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(noTwin.headers.get('content-encoding')).toBeNull();
    expect(await noTwin.text()).toBe(code);
  });
});

describe('acceptedEncoding', () => {
  it('picks brotli, then gzip, else the plain bytes', () => {
    expect(acceptedEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(acceptedEncoding('gzip;q=1.0, identity; q=0.5')).toBe('gzip');
    expect(acceptedEncoding('deflate')).toBe('identity');
    expect(acceptedEncoding(undefined)).toBe('identity');
  });
});
