import { APP_ORIGIN_PLACEHOLDER } from '@haven/platform/src/prerendered-pages';
import {
  inlineStylesheets,
  linkedStylesheets,
  pageAssets,
  pageDocument,
  sitemapXml,
  type ViteManifest,
} from './document';

const indexHtml = `<!doctype html>
<html lang="en">
  <head>
    <title>Haven</title>
    <meta name="description" content="Default" />
    <script>(function () {})();</script>
    <script type="module" crossorigin src="/assets/index-1.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-1.css">
  </head>
  <body>
    <noscript>Haven needs JavaScript to run.</noscript>
    <!-- the boot loader -->
    <div id="root">
      <div class="boot-loader"><svg></svg></div>
    </div>
  </body>
</html>`;

const manifest: ViteManifest = {
  'index.html': { file: 'assets/index-1.js', isEntry: true, css: ['assets/index-1.css'], imports: ['_react.js'] },
  '_react.js': { file: 'assets/react-1.js' },
  'src/areas/public/index.ts': {
    file: 'assets/public-1.js',
    css: ['assets/public-1.css'],
    imports: ['_react.js', '_Card.js'],
  },
  '_Card.js': { file: 'assets/Card-1.js', css: ['assets/Card-1.css'], imports: ['_react.js'] },
};

describe('pageAssets', () => {
  it('lists the module’s chunk, the chunks it imports and their stylesheets, without what index.html loads', () => {
    expect(pageAssets(manifest, 'src/areas/public/index.ts')).toEqual({
      css: ['/assets/public-1.css', '/assets/Card-1.css'],
      js: ['/assets/public-1.js', '/assets/Card-1.js'],
    });
  });

  it('needs nothing more for a page inside the entry’s chunk', () => {
    expect(pageAssets(manifest, undefined)).toEqual({ css: [], js: [] });
  });

  it('fails loudly for a module that is no chunk of its own, rather than leave the page unstyled', () => {
    expect(() => pageAssets(manifest, 'src/app/NotFoundPage.tsx')).toThrow(/has no chunk made from/);
  });
});

describe('pageDocument', () => {
  const document = pageDocument(indexHtml, {
    html: '<main><h1>Prices</h1><p>Less than $1 &amp; $2 a week</p></main>',
    title: 'Prices | Haven',
    headTags: [
      { kind: 'name', key: 'description', value: 'What it costs' },
      { kind: 'link', key: 'canonical', value: `${APP_ORIGIN_PLACEHOLDER}/prices` },
      { kind: 'property', key: 'og:title', value: 'Prices "today"' },
    ],
    rootAttributes: { 'data-prerendered': '', 'data-country': 'US' },
    assets: { css: ['/assets/public-1.css'], js: ['/assets/public-1.js'] },
  });

  it('puts the page in the root, marked, in place of the boot loader, its text exactly as rendered', () => {
    expect(document).toContain(
      '<div id="root" data-prerendered data-country="US"><main><h1>Prices</h1><p>Less than $1 &amp; $2 a week</p></main></div>\n  </body>',
    );
    expect(document).not.toContain('boot-loader');
  });

  it('drops the note that Haven needs JavaScript, and keeps index.html’s scripts', () => {
    expect(document).not.toContain('noscript');
    expect(document).toContain('<script>(function () {})();</script>');
    expect(document).toContain('src="/assets/index-1.js"');
  });

  it('keeps the note that Haven needs JavaScript on a page of no use without it (a form, a link’s check)', () => {
    const signIn = pageDocument(indexHtml, {
      html: '<main><h1>Sign In</h1><form></form></main>',
      title: 'Sign In | Haven',
      headTags: [],
      rootAttributes: { 'data-prerendered': '' },
      assets: { css: [], js: [] },
      needsScript: true,
    });
    expect(signIn).toContain('<noscript>Haven needs JavaScript to run.</noscript>');
    expect(signIn).toContain('<div id="root" data-prerendered><main><h1>Sign In</h1><form></form></main></div>');
  });

  it('writes the title, the description in index.html’s tag, and the other head tags marked for the app to drop', () => {
    expect(document).toContain('<title>Prices | Haven</title>');
    expect(document).toContain('<meta name="description" content="What it costs" />');
    expect(document).not.toContain('content="Default"');
    expect(document).toContain(`<link rel="canonical" href="${APP_ORIGIN_PLACEHOLDER}/prices" data-prerendered-head>`);
    expect(document).toContain('<meta property="og:title" content="Prices &quot;today&quot;" data-prerendered-head>');
  });

  it('links the page’s stylesheets and preloads its scripts in the head', () => {
    const head = document.slice(0, document.indexOf('</head>'));
    expect(head).toContain('<link rel="stylesheet" crossorigin href="/assets/public-1.css">');
    expect(head).toContain('<link rel="modulepreload" crossorigin href="/assets/public-1.js">');
  });

  it('fails loudly when index.html has no root to fill', () => {
    expect(() =>
      pageDocument('<html><head></head><body></body></html>', {
        html: '<p>x</p>',
        title: '',
        headTags: [],
        rootAttributes: {},
        assets: { css: [], js: [] },
      }),
    ).toThrow(/index.html has no/);
  });
});

it('lists each public page in the sitemap at the site’s origin', () => {
  expect(sitemapXml(['/', '/faq'])).toContain(
    `<url><loc>${APP_ORIGIN_PLACEHOLDER}/</loc></url>\n  <url><loc>${APP_ORIGIN_PLACEHOLDER}/faq</loc></url>`,
  );
});

describe('inlineStylesheets', () => {
  const page =
    '<head><link rel="stylesheet" crossorigin href="/assets/a-1.css">\n<link rel="stylesheet" crossorigin href="/assets/b-1.css"></head>' +
    '<body><div id="root" data-prerendered></div></body>';

  it('puts each linked stylesheet’s rules in the page, in its link’s place and order, and lists them on the root', () => {
    expect(linkedStylesheets(page)).toEqual(['/assets/a-1.css', '/assets/b-1.css']);
    const sheets = [
      { href: '/assets/a-1.css', css: 'body{color:red}\n' },
      { href: '/assets/b-1.css', css: '.x::after{content:"$1"}' },
    ];
    expect(inlineStylesheets(page, sheets)).toBe(
      '<head><style>body{color:red}</style>\n<style>.x::after{content:"$1"}</style></head>' +
        '<body><div id="root" data-stylesheets="/assets/a-1.css /assets/b-1.css" data-prerendered></div></body>',
    );
  });

  it('refuses rules that would end the style element, and a stylesheet the page does not link', () => {
    expect(() => inlineStylesheets(page, [{ href: '/assets/a-1.css', css: 'a{}</style><script>' }])).toThrow(
      /cannot be inlined/,
    );
    expect(() => inlineStylesheets(page, [{ href: '/assets/c-1.css', css: 'a{}' }])).toThrow(/links no stylesheet/);
  });
});
