/**
 * docs/configuration.md is generated from the environment schemas (tools/docs/configuration.ts): the checked-in
 * page is what the schemas say now, so a variable added, removed or re-described without `make docs` fails here.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileSecretNames } from '@haven/platform';
import { configurationTables } from '../docs/configuration';

const root = join(__dirname, '..', '..');

it('docs/configuration.md is what `make docs` writes from the environment schemas', () => {
  // A process of its own: the page is formatted by Prettier, whose ES modules jest cannot load.
  const check = spawnSync(process.execPath, ['--import', 'tsx', 'tools/docs/configuration.ts', '--check'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (check.status !== 0) throw new Error(check.stderr || `the check exited with ${check.status}`);
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
