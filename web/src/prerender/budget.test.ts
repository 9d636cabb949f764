import {
  budgetLine,
  checkBudget,
  documentScripts,
  FIRST_PAGE_SCRIPT_BUDGET_BYTES,
  formatKb,
  withStaticImports,
} from './budget';
import type { ViteManifest } from './document';

const page = `<!doctype html>
<html lang="en">
  <head>
    <script>(function () {})();</script>
    <script type="module" crossorigin src="/assets/index-1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-1.js">
    <link rel="stylesheet" crossorigin href="/assets/index-1.css">
    <link rel="modulepreload" crossorigin href="/assets/Landing-1.js">
    <link rel="modulepreload" crossorigin href="/assets/react-1.js">
    <link rel="canonical" href="https://haven.example/" data-prerendered-head>
  </head>
  <body>
    <div id="root" data-prerendered><main><script type="application/ld+json">{"@type":"FAQPage"}</script></main></div>
  </body>
</html>`;

const manifest: ViteManifest = {
  'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_react.js'] },
  '_react.js': { file: 'assets/react-1.js' },
  'src/areas/public/LandingPage.tsx': { file: 'assets/Landing-1.js', imports: ['_react.js', '_Frame.js'] },
  '_Frame.js': { file: 'assets/Frame-1.js', imports: ['_react.js'] },
};

describe('documentScripts', () => {
  it('lists the module scripts and module preloads, each once, and nothing that loads no script', () => {
    expect(documentScripts(page)).toEqual(['/assets/index-1.js', '/assets/react-1.js', '/assets/Landing-1.js']);
  });
});

describe('withStaticImports', () => {
  it('adds the chunks the scripts import statically, which the browser fetches before running them', () => {
    expect(withStaticImports(['/assets/index-1.js', '/assets/Landing-1.js'], manifest)).toEqual([
      '/assets/index-1.js',
      '/assets/react-1.js',
      '/assets/Landing-1.js',
      '/assets/Frame-1.js',
    ]);
  });

  it('keeps a script the manifest does not know', () => {
    expect(withStaticImports(['/assets/other.js'], manifest)).toEqual(['/assets/other.js']);
  });
});

describe('checkBudget', () => {
  it('is 100 kB of 1000 bytes', () => {
    expect(FIRST_PAGE_SCRIPT_BUDGET_BYTES).toBe(100_000);
  });

  it('sums each page’s scripts and says which pages are over the budget', () => {
    const results = checkBudget(
      [
        {
          page: 'landing.html',
          scripts: [
            { file: '/a.js', gzipBytes: 60_000 },
            { file: '/b.js', gzipBytes: 40_000 },
          ],
        },
        {
          page: 'faq.html',
          scripts: [
            { file: '/a.js', gzipBytes: 60_000 },
            { file: '/c.js', gzipBytes: 40_001 },
          ],
        },
      ],
      100_000,
    );
    expect(results).toEqual([
      { page: 'landing.html', totalBytes: 100_000, budgetBytes: 100_000, over: false },
      { page: 'faq.html', totalBytes: 100_001, budgetBytes: 100_000, over: true },
    ]);
  });

  it('uses the one budget when none is given', () => {
    expect(checkBudget([{ page: 'x.html', scripts: [] }])[0]?.budgetBytes).toBe(FIRST_PAGE_SCRIPT_BUDGET_BYTES);
  });
});

describe('budgetLine', () => {
  it('names the page, its total and the budget', () => {
    expect(budgetLine({ page: 'about.html', totalBytes: 94_051, budgetBytes: 100_000, over: false })).toBe(
      'about.html: 94.05 kB of gzipped JavaScript before it is usable (budget 100.00 kB)',
    );
  });

  it('says by how much a page is over, with its scripts largest first', () => {
    const line = budgetLine({ page: 'faq.html', totalBytes: 102_500, budgetBytes: 100_000, over: true }, [
      { file: '/assets/Faq-1.js', gzipBytes: 20_000 },
      { file: '/assets/react-1.js', gzipBytes: 82_500 },
    ]);
    expect(line).toBe(
      'faq.html: 102.50 kB of gzipped JavaScript before it is usable, over the budget of 100.00 kB by 2.50 kB' +
        '\n      82.50 kB  /assets/react-1.js\n      20.00 kB  /assets/Faq-1.js',
    );
  });

  it('formats bytes as kB of 1000 bytes', () => {
    expect(formatKb(1234)).toBe('1.23 kB');
  });
});
