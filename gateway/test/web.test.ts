import { createHash } from 'node:crypto';
import { inlineScriptHashes } from '../src/web';

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
