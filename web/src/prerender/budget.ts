/**
 * The first page's script budget: a prerendered public page may load at most this much gzipped JavaScript before
 * it is usable, counting every script its document runs or preloads and every chunk those import statically.
 * The prerender step (prerender/entry.tsx) checks each page it writes and fails the build over budget.
 */
import type { ViteManifest } from './document';

/** 100 kB, in units of 1000 bytes (as Vite's own size report counts them), of JavaScript gzipped at level 9. */
export const FIRST_PAGE_SCRIPT_BUDGET_BYTES = 100 * 1000;

/**
 * The scripts a page's document loads as it opens, in order and each once: its module scripts and its module
 * preloads, as site paths (`/assets/…`). Structured data (`application/ld+json`) and inline scripts load nothing.
 */
export function documentScripts(document: string): string[] {
  const scripts = new Set<string>();
  for (const [tag] of document.matchAll(/<script\b[^>]*>|<link\b[^>]*>/gi)) {
    const isModuleScript = /^<script/i.test(tag) && /\btype="module"/i.test(tag);
    const isModulePreload = /^<link/i.test(tag) && /\brel="modulepreload"/i.test(tag);
    if (!isModuleScript && !isModulePreload) continue;
    const source = /\b(?:src|href)="([^"]+)"/i.exec(tag)?.[1];
    if (source) scripts.add(source);
  }
  return [...scripts];
}

/**
 * The scripts with every chunk they import statically (the browser fetches those before running them, preloaded
 * or not), by the build's manifest. A script the manifest does not know is kept as it is.
 */
export function withStaticImports(scripts: readonly string[], manifest: ViteManifest): string[] {
  const byFile = new Map(Object.values(manifest).map((chunk) => [`/${chunk.file}`, chunk]));
  const fileOfKey = (key: string) => (manifest[key] ? `/${manifest[key].file}` : undefined);
  const all = new Set<string>();
  const visit = (script: string) => {
    if (all.has(script)) return;
    all.add(script);
    for (const imported of byFile.get(script)?.imports ?? []) {
      const file = fileOfKey(imported);
      if (file) visit(file);
    }
  };
  for (const script of scripts) visit(script);
  return [...all];
}

export interface PageScripts {
  /** The page as the build names it (its file in dist/pages). */
  page: string;
  /** Each script the page loads before it is usable, with its gzipped size in bytes. */
  scripts: Array<{ file: string; gzipBytes: number }>;
}

/**
 * Where the build leaves the budget and what it counted on each page (under dist/), for the bench's report
 * (tools/bench/web.ts), which holds the same scripts to the same budget in a real browser. In Vite's own folder,
 * beside the manifest it is made from: the gateway serves no dotfile.
 */
export const SCRIPT_BUDGET_REPORT = '.vite/script-budget.json';

export interface ScriptBudgetReport {
  budgetBytes: number;
  pages: PageScripts[];
}

export interface PageBudget {
  page: string;
  totalBytes: number;
  budgetBytes: number;
  over: boolean;
}

/** Each page's total against the budget. */
export function checkBudget(pages: readonly PageScripts[], budgetBytes = FIRST_PAGE_SCRIPT_BUDGET_BYTES): PageBudget[] {
  return pages.map(({ page, scripts }) => {
    const totalBytes = scripts.reduce((sum, script) => sum + script.gzipBytes, 0);
    return { page, totalBytes, budgetBytes, over: totalBytes > budgetBytes };
  });
}

/** Bytes as kB of 1000 bytes, to two decimals (as Vite reports sizes). */
export function formatKb(bytes: number): string {
  return `${(bytes / 1000).toFixed(2)} kB`;
}

/** One line for a page: its total against the budget, and which scripts make it up when it is over. */
export function budgetLine(result: PageBudget, scripts?: PageScripts['scripts']): string {
  const head = `${result.page}: ${formatKb(result.totalBytes)} of gzipped JavaScript before it is usable`;
  if (!result.over) return `${head} (budget ${formatKb(result.budgetBytes)})`;
  const parts = (scripts ?? [])
    .slice()
    .sort((a, b) => b.gzipBytes - a.gzipBytes)
    .map((script) => `\n    ${formatKb(script.gzipBytes).padStart(10)}  ${script.file}`)
    .join('');
  return `${head}, over the budget of ${formatKb(result.budgetBytes)} by ${formatKb(result.totalBytes - result.budgetBytes)}${parts}`;
}
