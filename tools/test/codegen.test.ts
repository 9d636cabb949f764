/**
 * The generated resolver types follow the schemas: what codegen.ts produces now is what is checked in
 * (the comparison `make codegen-check` makes in `make check`), and a field added to a schema without
 * `make codegen` leaves that service's checked-in types stale, so the check fails.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceCatalog } from '../../services/platform/src/catalog';

const root = join(__dirname, '..', '..');
const typesOf = (dir: string) => join(dir, 'src', 'resolvers', 'types.generated.ts');

let work: string;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'haven-codegen-'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

/** Runs the project's codegen on a copy of the schemas (after `edit`), into a scratch folder. */
function generateFromSchemas(edit: (schemas: string) => void = () => undefined): string {
  const schemas = join(work, 'schemas');
  const out = join(work, 'out');
  for (const { dir } of serviceCatalog) {
    cpSync(join(root, dir, 'src', 'schema.graphql'), join(schemas, dir, 'src', 'schema.graphql'));
  }
  edit(schemas);
  execFileSync(join(root, 'node_modules', '.bin', 'graphql-codegen'), ['--config', 'codegen.ts'], {
    cwd: root,
    env: { ...process.env, HAVEN_CODEGEN_OUT: out, HAVEN_CODEGEN_SCHEMAS: schemas },
    stdio: 'pipe',
  });
  return out;
}

const read = (file: string) => readFileSync(file, 'utf8');

it('the checked-in resolver types are what the schemas generate', () => {
  const out = generateFromSchemas();
  for (const { dir } of serviceCatalog) {
    expect({ dir, types: read(typesOf(join(out, dir))) }).toEqual({ dir, types: read(typesOf(join(root, dir))) });
  }
}, 60_000);

it('a field added to a schema without regenerating leaves that service’s types stale', () => {
  const out = generateFromSchemas((schemas) => {
    const quoteSchema = join(schemas, 'services/quote/src/schema.graphql');
    writeFileSync(
      quoteSchema,
      read(quoteSchema).replace('favoriteQuotes: Int!', 'favoriteQuotes: Int!\n  streakDays: Int!'),
    );
  });
  const regenerated = read(typesOf(join(out, 'services/quote')));
  expect(regenerated).toContain('streakDays');
  expect(regenerated).not.toEqual(read(typesOf(join(root, 'services/quote'))));
  expect(read(typesOf(join(out, 'services/user')))).toEqual(read(typesOf(join(root, 'services/user'))));
}, 60_000);
