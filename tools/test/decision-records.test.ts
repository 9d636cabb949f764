/**
 * The decision records (docs/decisions/) stay findable: every record is listed in the index and every index
 * link names a record, every record has its three headings, and every `docs/decisions/….md` path cited
 * anywhere in the repository (code, docs, compose, Kubernetes) exists.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const DECISIONS = path.join(ROOT, 'docs', 'decisions');
const INDEX = path.join(DECISIONS, 'README.md');
const rel = (p: string): string => path.relative(ROOT, p).split(path.sep).join('/');

/** Folders that hold no source of Haven's own: dependencies, build output, local state. */
const SKIPPED_DIRS = new Set(['node_modules', '.git', '.haven', 'dist', 'dist-prerender', 'coverage', 'test-results']);
const TEXT_FILE =
  /(\.(ts|tsx|js|mjs|cjs|jsx|java|json|ya?ml|md|proto|graphql|xml|html|css|sh|txt|env|example|conf))$|(^Makefile$|^Dockerfile)/;

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) walk(path.join(dir, entry.name), out);
    } else if (entry.isFile() && TEXT_FILE.test(entry.name)) {
      out.push(path.join(dir, entry.name));
    }
  }
  return out;
}

const records = walk(DECISIONS)
  .filter((f) => f.endsWith('.md') && f !== INDEX)
  .map((f) => path.relative(DECISIONS, f).split(path.sep).join('/'))
  .sort();
/** Markdown without its code spans: an example in backticks is not a link. */
const withoutCode = (text: string): string => text.replace(/`[^`]*`/g, '');
const index = withoutCode(fs.readFileSync(INDEX, 'utf8'));
const indexLinks = [...index.matchAll(/\]\(([^)#\s]+\.md)\)/g)].map((m) => m[1] ?? '');

describe('decision records', () => {
  test('there are records, each in an area folder', () => {
    expect(records.length).toBeGreaterThan(0);
    expect(records.filter((r) => !r.includes('/'))).toEqual([]);
  });

  test('every record is listed in the index, once', () => {
    const unlisted = records.filter((r) => !indexLinks.includes(r));
    const twice = indexLinks.filter((l, i) => indexLinks.indexOf(l) !== i);
    expect({ unlisted, twice }).toEqual({ unlisted: [], twice: [] });
  });

  test('every link in the index names an existing record', () => {
    const missing = indexLinks.filter((l) => !fs.existsSync(path.join(DECISIONS, l)));
    expect(missing).toEqual([]);
  });

  test('every record has a title and the Context, Decision and Consequences headings, in that order', () => {
    const bad = records.flatMap((r) => {
      const text = fs.readFileSync(path.join(DECISIONS, r), 'utf8');
      const [context, decision, consequences] = ['## Context', '## Decision', '## Consequences'].map((h) =>
        text.search(new RegExp(`^${h}\\s*$`, 'm')),
      ) as [number, number, number];
      const problems: string[] = [];
      if (!/^# \S/.test(text)) problems.push('no "# Title" on the first line');
      if (Math.min(context, decision, consequences) < 0) problems.push('a heading is missing');
      else if (!(context < decision && decision < consequences)) problems.push('headings out of order');
      return problems.map((p) => `${r}: ${p}`);
    });
    expect(bad).toEqual([]);
  });

  test('every link between records and from records to other docs resolves', () => {
    const broken = records.flatMap((r) => {
      const file = path.join(DECISIONS, r);
      const text = withoutCode(fs.readFileSync(file, 'utf8'));
      return [...text.matchAll(/\]\(([^)#\s]+)(#[^)\s]*)?\)/g)]
        .map((m) => m[1] ?? '')
        .filter((target) => !/^[a-z]+:/.test(target))
        .filter((target) => !fs.existsSync(path.resolve(path.dirname(file), target)))
        .map((target) => `${r} → ${target}`);
    });
    expect(broken).toEqual([]);
  });

  test('every docs/decisions path cited in the repository exists, and nothing cites the old single file', () => {
    const cited: string[] = [];
    for (const file of walk(ROOT).filter((f) => f !== __filename)) {
      const text = fs.readFileSync(file, 'utf8');
      for (const [cite, rest = ''] of text.matchAll(/docs\/decisions(\.md|\/[A-Za-z0-9_./-]*\.md)/g)) {
        if (rest === '.md') cited.push(`${rel(file)} cites docs/decisions.md, which is now docs/decisions/`);
        else if (!fs.existsSync(path.join(ROOT, 'docs', 'decisions', rest))) cited.push(`${rel(file)} → ${cite}`);
      }
    }
    expect(cited).toEqual([]);
  });
});
