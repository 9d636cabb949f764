/**
 * docs/configuration.md is generated from the environment schemas (tools/docs/configuration.ts): the checked-in
 * page is what the schemas say now, so a variable added, removed or re-described without `make docs` fails here.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileSecretNames } from '@haven/platform';
import {
  checkedInPage,
  configurationMarkdown,
  configurationPagePath,
  configurationTables,
  stalePageReport,
} from '../docs/configuration';

const root = join(__dirname, '..', '..');

it('docs/configuration.md is what `make docs` writes from the environment schemas', () => {
  // The page is written here, from the schemas this file loads anyway; only Prettier, whose ES modules jest
  // cannot load, formats it in a process of its own: its command line, which finds the same configuration from
  // the page's path as `make docs` does through its API (neither reads .editorconfig).
  const prettier = spawnSync(
    join(root, 'node_modules', '.bin', 'prettier'),
    ['--stdin-filepath', configurationPagePath, '--no-editorconfig'],
    { cwd: root, input: configurationMarkdown(), encoding: 'utf8' },
  );
  if (prettier.status !== 0) throw new Error(prettier.stderr || `prettier exited with ${prettier.status}`);
  const stale = stalePageReport(checkedInPage(), prettier.stdout);
  if (stale) throw new Error(stale);
});

it('every variable has a meaning and a default, and each secret that may come from a file is shown with NAME_FILE', () => {
  const rows = configurationTables().flatMap((table) => table.rows);
  for (const row of rows) {
    expect(row.meaning.trim()).not.toBe('');
    expect(row.defaultText.trim()).not.toBe('');
  }
  const names = rows.map((row) => row.name);
  for (const secret of fileSecretNames) {
    expect(names).toContain(`\`${secret}\` / \`${secret}_FILE\``);
  }
});
