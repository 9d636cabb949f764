/** Pure parts of the prerender step (prerender/entry.tsx): which files a page needs, and its HTML document. */
import type { HeadTag } from '../lib/pageMeta';
import { INLINED_STYLESHEETS_ATTRIBUTE, PRERENDERED_HEAD_ATTRIBUTE } from '../lib/prerendered';
import { APP_ORIGIN_PLACEHOLDER } from '@haven/platform/src/prerendered-pages';

/** Vite's build manifest (build.manifest): each chunk by the source module it was made from. */
export type ViteManifest = Record<string, { file: string; css?: string[]; imports?: string[]; isEntry?: boolean }>;

/** The sitemap of the public pages, each at the site's origin (written by the gateway). */
export function sitemapXml(paths: string[]): string {
  const urls = paths.map((path) => `  <url><loc>${APP_ORIGIN_PLACEHOLDER}${path}</loc></url>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

/**
 * The stylesheets and scripts a page's module needs beyond index.html's own: its chunk and the chunks it imports,
 * each once. The stylesheets are linked so the page is styled before any script; the scripts preloaded, so the
 * browser fetches them beside the entry instead of after it. A module inside the entry's chunk needs nothing more.
 */
export function pageAssets(manifest: ViteManifest, module: string | undefined): { css: string[]; js: string[] } {
  const entry = Object.values(manifest).find((chunk) => chunk.isEntry);
  const inEntry = new Set<string>();
  const collect = (key: string, into: Set<string>, css: Set<string>) => {
    const chunk = manifest[key];
    if (!chunk || into.has(chunk.file)) return;
    into.add(chunk.file);
    for (const sheet of chunk.css ?? []) css.add(sheet);
    for (const imported of chunk.imports ?? []) collect(imported, into, css);
  };
  const entryCss = new Set<string>();
  const entryKey = Object.keys(manifest).find((key) => manifest[key] === entry);
  if (entryKey) collect(entryKey, inEntry, entryCss);
  const js = new Set<string>();
  const css = new Set<string>();
  if (module && !manifest[module]) throw new Error(`the build's manifest has no chunk made from ${module}`);
  if (module) collect(module, js, css);
  return {
    css: [...css].filter((file) => !entryCss.has(file)).map((file) => `/${file}`),
    js: [...js].filter((file) => !inEntry.has(file)).map((file) => `/${file}`),
  };
}

function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

/**
 * index.html with the page in its root instead of the boot loader: the page's title, its stylesheets and
 * preloaded scripts in the head, and the root marked as prerendered (main.tsx then adopts the HTML). The note
 * that Haven needs JavaScript goes, as the page reads without it, unless the page `needsScript` to be of use (a
 * form, or a link's check).
 */
export function pageDocument(
  indexHtml: string,
  page: {
    html: string;
    title: string;
    headTags: HeadTag[];
    rootAttributes: Record<string, string>;
    assets: { css: string[]; js: string[] };
    needsScript?: boolean;
  },
): string {
  const links = [
    // Marked, so the app drops them when it starts (the pages it draws then set their own; main.tsx).
    ...page.headTags
      .filter((tag) => tag.key !== 'description')
      .map((tag) =>
        tag.kind === 'link'
          ? `<link rel="${tag.key}" href="${escapeHtml(tag.value)}" ${PRERENDERED_HEAD_ATTRIBUTE}>`
          : `<meta ${tag.kind}="${tag.key}" content="${escapeHtml(tag.value)}" ${PRERENDERED_HEAD_ATTRIBUTE}>`,
      ),
    ...page.assets.css.map((href) => `<link rel="stylesheet" crossorigin href="${href}">`),
    ...page.assets.js.map((href) => `<link rel="modulepreload" crossorigin href="${href}">`),
  ].join('\n    ');
  const attributes = Object.entries(page.rootAttributes)
    .map(([name, value]) => (value === '' ? ` ${name}` : ` ${name}="${escapeHtml(value)}"`))
    .join('');
  // A function makes each replacement, so a $ in a page's text is never read as a pattern's group.
  const replaced = (html: string, pattern: RegExp, replacement: (group: string) => string) => {
    if (!pattern.test(html)) throw new Error(`index.html has no ${pattern.source}`);
    return html.replace(pattern, (_match, group: unknown) => replacement(typeof group === 'string' ? group : ''));
  };
  let document = indexHtml;
  if (page.title)
    document = replaced(document, /<title>[^<]*<\/title>/, () => `<title>${escapeHtml(page.title)}</title>`);
  // The page's description in index.html's own tag (the app puts the default back when it starts).
  const description = page.headTags.find((tag) => tag.key === 'description');
  if (description) {
    document = replaced(
      document,
      /<meta name="description"[^>]*>/,
      () => `<meta name="description" content="${escapeHtml(description.value)}" />`,
    );
  }
  if (!page.needsScript)
    document = replaced(document, /\s*<noscript>[\s\S]*?<\/noscript>(?:\s*<!--[\s\S]*?-->)?/, () => '');
  document = replaced(
    document,
    /<div id="root">[\s\S]*<\/div>(\s*<\/body>)/,
    (end) => `<div id="root"${attributes}>${page.html}</div>${end}`,
  );
  if (links) document = replaced(document, /(\s*)<\/head>/, (indent) => `${indent}  ${links}${indent}</head>`);
  return document;
}

/**
 * Puts each linked stylesheet's rules into the page itself, in place of its link: the page is styled with its first
 * response, with no stylesheet to wait for before the first paint (a round trip or more on a phone's connection).
 * The page's root lists the files (`data-stylesheets`): main.tsx tells the bundles' loader they are there, or it would
 * add them a second time when the page's code arrives (lib/prerendered.ts, markInlinedStylesheets).
 */
export function inlineStylesheets(document: string, sheets: Array<{ href: string; css: string }>): string {
  let inlined = document;
  for (const { href, css } of sheets) {
    if (/<\/style/i.test(css)) throw new Error(`${href} cannot be inlined: it contains </style`);
    const link = new RegExp(`<link rel="stylesheet"[^>]*href="${href.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*>`);
    if (!link.test(inlined)) throw new Error(`the page links no stylesheet ${href}`);
    inlined = inlined.replace(link, () => `<style>${css.trim()}</style>`);
  }
  if (sheets.length === 0) return inlined;
  const root = '<div id="root"';
  if (!inlined.includes(root)) throw new Error('the page has no root element');
  const hrefs = sheets.map(({ href }) => href).join(' ');
  return inlined.replace(root, () => `${root} ${INLINED_STYLESHEETS_ATTRIBUTE}="${escapeHtml(hrefs)}"`);
}

/** The stylesheets a page document links (index.html's and the page's own), in order. */
export function linkedStylesheets(document: string): string[] {
  return [...document.matchAll(/<link rel="stylesheet"[^>]*href="([^"]+)"[^>]*>/g)].map((match) => match[1]!);
}
