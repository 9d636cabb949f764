/**
 * The generated resolver types follow the schemas: what codegen.ts produces now is what is checked in
 * (the comparison `make codegen-check` makes in `make check`), and a field added to a schema without
 * `make codegen` leaves that service's checked-in types stale, so the check fails. The same holds for the
 * operations one service asks another (`<caller>/src/operations/<target>.graphql`), which are also validated
 * against the schema they run on, and which are the only way services' code calls each other. And the same for
 * the REST facade's operations (each `.graphql` under `gateway/src/rest`), against the API schema the gateway serves.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import ts from 'typescript';
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

/** Adds a field to the quote service's schema, in a copy of the schemas laid out like the repository. */
function addStreakDays(schemas: string): void {
  const quoteSchema = join(schemas, 'services/quote/src/schema.graphql');
  writeFileSync(
    quoteSchema,
    read(quoteSchema).replace('favoriteQuotes: Int!', 'favoriteQuotes: Int!\n  streakDays: Int!'),
  );
}

/**
 * What the checked-in schemas generate, and the schemas after `addStreakDays`: both runs in one process
 * (tools/test/codegen-runs.cjs), which loads the generator once for both, on the first test that asks.
 */
let shared: { folder: string; checkedIn: string; streakDaysAdded: string } | undefined;
function sharedRuns(): { checkedIn: string; streakDaysAdded: string } {
  if (shared) return shared;
  const folder = mkdtempSync(join(tmpdir(), 'haven-codegen-'));
  const schemas = join(folder, 'schemas');
  for (const { dir } of serviceCatalog) {
    cpSync(join(root, dir, 'src', 'schema.graphql'), join(schemas, dir, 'src', 'schema.graphql'));
  }
  addStreakDays(schemas);
  const runs = { folder, checkedIn: join(folder, 'checked-in'), streakDaysAdded: join(folder, 'streak-days-added') };
  execFileSync(process.execPath, ['tools/test/codegen-runs.cjs', '.', runs.checkedIn, schemas, runs.streakDaysAdded], {
    cwd: root,
    stdio: 'pipe',
  });
  return (shared = runs);
}
afterAll(() => shared && rmSync(shared.folder, { recursive: true, force: true }));

it('the checked-in resolver types are what the schemas generate', () => {
  const out = sharedRuns().checkedIn;
  for (const { dir } of serviceCatalog) {
    expect({ dir, types: read(typesOf(join(out, dir))) }).toEqual({ dir, types: read(typesOf(join(root, dir))) });
  }
}, 60_000);

it('a field added to a schema without regenerating leaves that service’s types stale', () => {
  const out = sharedRuns().streakDaysAdded;
  const regenerated = read(typesOf(join(out, 'services/quote')));
  expect(regenerated).toContain('streakDays');
  expect(regenerated).not.toEqual(read(typesOf(join(root, 'services/quote'))));
  expect(read(typesOf(join(out, 'services/user')))).toEqual(read(typesOf(join(root, 'services/user'))));
}, 60_000);

/** Every `<caller>/src/operations/<target>.graphql` with its generated types, from the repository root. */
function seamFiles(): Array<{ caller: string; target: string; generated: string }> {
  return [...serviceCatalog.map(({ dir }) => dir), 'services/platform'].flatMap((caller) => {
    const folder = join(root, caller, 'src', 'operations');
    if (!existsSync(folder)) return [];
    return readdirSync(folder)
      .filter((file) => file.endsWith('.graphql'))
      .map((file) => {
        const target = file.replace(/\.graphql$/, '');
        return { caller, target, generated: join(caller, 'src', 'operations', `${target}.generated.ts`) };
      });
  });
}

it('the checked-in types of the operations between services are what their documents generate', () => {
  const seams = seamFiles();
  expect(seams.length).toBeGreaterThan(0);
  const out = sharedRuns().checkedIn;
  for (const { generated } of seams) {
    expect({ generated, types: read(join(out, generated)) }).toEqual({ generated, types: read(join(root, generated)) });
  }
}, 60_000);

/** The REST facade’s operation documents (each `.graphql` under `gateway/src/rest`) with their generated types. */
function restDocumentFiles(): Array<{ document: string; generated: string }> {
  const folder = join('gateway', 'src', 'rest');
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.graphql'))
    .map((file) => ({
      document: join(folder, file),
      generated: join(folder, file.replace(/\.graphql$/, '.generated.ts')),
    }));
}

it('the checked-in types of the REST facade’s operations are what their documents generate', () => {
  const files = restDocumentFiles();
  expect(files.length).toBeGreaterThan(0);
  const out = sharedRuns().checkedIn;
  for (const { generated } of files) {
    expect({ generated, types: read(join(out, generated)) }).toEqual({ generated, types: read(join(root, generated)) });
  }
}, 60_000);

it('a REST route’s operation asking a field the gateway does not serve fails generation, naming the field', () => {
  let failure: { status?: number; stdout?: Buffer; stderr?: Buffer } | undefined;
  try {
    generateFromSchemas((schemas) => {
      const userSchema = join(schemas, 'services/user/src/schema.graphql');
      const edited = read(userSchema).replace(/^ {2}trialUsers: Int!\n/m, '');
      expect(edited).not.toContain('trialUsers');
      writeFileSync(userSchema, edited);
    });
  } catch (error) {
    failure = error as typeof failure;
  }
  expect(failure?.status).toBe(1);
  const output = `${failure?.stdout?.toString()}${failure?.stderr?.toString()}`;
  expect(output).toContain('Cannot query field "trialUsers" on type "AdminUserStats"');
  expect(output).toContain('gateway/src/rest/routes/admin.graphql');
}, 60_000);

it('an operation asking a field the service it calls does not serve fails generation, naming the field', () => {
  let failure: { status?: number; stdout?: Buffer; stderr?: Buffer } | undefined;
  try {
    generateFromSchemas((schemas) => {
      const userSchema = join(schemas, 'services/user/src/schema.graphql');
      // The field and its description: the schema stays valid, only the operation asking for it is not.
      const edited = read(userSchema).replace(/^ {2}"""\n(?:(?! {2}""").*\n)* {2}"""\n {2}personDataKey\(.*\n/m, '');
      expect(edited).not.toContain('personDataKey');
      writeFileSync(userSchema, edited);
    });
  } catch (error) {
    failure = error as typeof failure;
  }
  expect(failure?.status).toBe(1);
  const output = `${failure?.stdout?.toString()}${failure?.stderr?.toString()}`;
  expect(output).toContain('Cannot query field "personDataKey" on type "Query"');
  expect(output).toContain('services/platform/src/operations/user.graphql');
}, 60_000);

it('a service’s operation documents ask only the services the catalog lets it ask', () => {
  for (const { name, dir, asks } of serviceCatalog) {
    const targets = seamFiles()
      .filter(({ caller }) => caller === dir)
      .map(({ target }) => target);
    expect({ name, unknownTargets: targets.filter((target) => !asks.some((asked) => asked === target)) }).toEqual({
      name,
      unknownTargets: [],
    });
  }
});

/** The TypeScript source files under a folder, generated ones left out. */
function sourcesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.generated.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

it('services call each other only with generated operation documents, never a hand-typed query', () => {
  const folders = [
    ...[...serviceCatalog.map(({ dir }) => dir), 'services/platform'].map((dir) => join(root, dir, 'src')),
    join(root, 'gateway', 'src'),
  ];
  const handTyped: string[] = [];
  let calls = 0;
  for (const file of folders.flatMap(sourcesUnder)) {
    const text = read(file);
    if (!text.includes('askSubgraph')) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'askSubgraph') {
        calls += 1;
        const operation = node.arguments[1];
        const generated = operation && ts.isIdentifier(operation) && operation.text.endsWith('Document');
        if (!generated || node.typeArguments) {
          const { line } = source.getLineAndCharacterOfPosition(node.getStart());
          handTyped.push(`${relative(root, file)}:${line + 1}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  expect(calls).toBeGreaterThan(0);
  expect(handTyped).toEqual([]);
});
