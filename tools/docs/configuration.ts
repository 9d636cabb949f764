/**
 * Writes docs/configuration.md, the environment reference, from the zod shapes the processes parse: each
 * variable's meaning is its schema's description (`.describe`, or `.meta` with `unset` where the default is
 * computed at start), its default is read from the schema. `make docs` runs it; `--check` fails when the page
 * is stale. Importing the shapes starts nothing: each service keeps its shape in its own src/config.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { baseConfigShape, fileSecretNames, serviceCatalog, type ServiceName } from '@haven/platform';
import type { z } from 'zod';
import { gatewayConfigShape } from '../../gateway/src/config';
import { billingConfigShape } from '../../services/billing/src/config';
import { complianceConfigShape } from '../../services/compliance/src/config';
import { notificationConfigShape } from '../../services/notification/src/config';
import { quoteConfigShape } from '../../services/quote/src/config';
import { userConfigShape } from '../../services/user/src/config';
import { toolVariables, tracingVariables } from './other-variables';

type Shape = Record<string, z.ZodType>;

const repositoryRoot = path.resolve(__dirname, '../..');
export const configurationPagePath = path.join(repositoryRoot, 'docs/configuration.md');
export const regenerateCommand = 'make docs';

const services: Array<[ServiceName, Shape]> = [
  ['user', userConfigShape],
  ['quote', quoteConfigShape],
  ['billing', billingConfigShape],
  ['notification', notificationConfigShape],
  ['compliance', complianceConfigShape],
];

interface Row {
  name: string;
  defaultText: string;
  meaning: string;
}

interface Table {
  title: string;
  rows: Row[];
  note?: string;
}

type Definition = { type: string; defaultValue?: unknown; in?: z.ZodType; innerType?: z.ZodType };

const definitionOf = (schema: z.ZodType) => schema.def as unknown as Definition;

/** The value a schema gives an unset variable, looking through the wrappers zod puts around a default. */
function defaultOf(schema: z.ZodType): { value: unknown } | undefined {
  const definition = definitionOf(schema);
  if (definition.type === 'default') return { value: definition.defaultValue };
  if (definition.type === 'pipe' && definition.in) return defaultOf(definition.in);
  return undefined;
}

/** The number schema under a default, for its bounds. */
function numberOf(schema: z.ZodType): { minValue: number | null; maxValue: number | null } | undefined {
  const definition = definitionOf(schema);
  if (definition.type === 'number') return schema as unknown as { minValue: number | null; maxValue: number | null };
  if (definition.type === 'default' && definition.innerType) return numberOf(definition.innerType);
  if (definition.type === 'pipe' && definition.in) return numberOf(definition.in);
  return undefined;
}

const units: Array<[number, string, string]> = [
  [24 * 60 * 60_000, ' day', ' days'],
  [60 * 60_000, ' h', ' h'],
  [60_000, ' min', ' min'],
  [1_000, ' s', ' s'],
];

/** A duration in the largest unit that divides it: `3600000` ms reads "1 h". */
function inWords(milliseconds: number): string | undefined {
  for (const [size, one, many] of units) {
    if (milliseconds >= size && milliseconds % size === 0) {
      const count = milliseconds / size;
      return `${count}${count === 1 ? one : many}`;
    }
  }
  return undefined;
}

/** How many milliseconds one unit of the variable is, when its name says it is a duration. */
function unitMs(name: string): number | undefined {
  if (name.endsWith('_MS')) return 1;
  if (name.endsWith('_SECONDS')) return 1_000;
  return undefined;
}

function valueText(value: unknown): string {
  if (Array.isArray(value)) return `\`${value.join(',')}\``;
  if (value === '') return 'empty';
  return `\`${String(value)}\``;
}

/** The default column: the schema's default, with its duration and bounds in words where the name says. */
function defaultText(name: string, schema: z.ZodType): string {
  const fallback = defaultOf(schema);
  const unset = schema.meta()?.unset;
  if (!fallback) {
    if (typeof unset === 'string') return unset;
    return schema.safeParse(undefined).success ? '— (none)' : '— (required)';
  }
  const unit = unitMs(name);
  const spell = (value: number) => (unit ? (inWords(value * unit) ?? String(value)) : String(value));
  const remarks: string[] = [];
  if (unit && typeof fallback.value === 'number') {
    const words = inWords(fallback.value * unit);
    if (words) remarks.push(words);
  }
  const bounds = numberOf(schema);
  // `.int()` alone bounds a number by the safe integers and a port by 65535: neither is worth a word.
  if (bounds && bounds.maxValue !== null && bounds.maxValue < Number.MAX_SAFE_INTEGER && bounds.maxValue !== 65535) {
    remarks.push(
      bounds.minValue !== null && bounds.minValue > 0
        ? `${spell(bounds.minValue)} to ${spell(bounds.maxValue)}`
        : `at most ${spell(bounds.maxValue)}`,
    );
  }
  return remarks.length > 0 ? `${valueText(fallback.value)} (${remarks.join('; ')})` : valueText(fallback.value);
}

function nameText(name: string): string {
  return fileSecretNames.includes(name) ? `\`${name}\` / \`${name}_FILE\`` : `\`${name}\``;
}

function meaningOf(name: string, schema: z.ZodType): string {
  const description = schema.description;
  if (!description) throw new Error(`${name} has no description: add .describe('…') where its schema is defined`);
  return description;
}

function row(name: string, schema: z.ZodType, defaultColumn = defaultText(name, schema)): Row {
  return { name: nameText(name), defaultText: defaultColumn, meaning: meaningOf(name, schema) };
}

/** Every service's settings; a default that differs by service (its port, its database) is listed per service. */
function everyServiceTable(): Table {
  const rows = Object.entries(baseConfigShape('user')).map(([name, schema]) => {
    const perService = services.map(([service, shape]) => [service, defaultText(name, shape[name]!)] as const);
    const distinct = new Set(perService.map(([, text]) => text));
    const column =
      distinct.size === 1 ? perService[0]![1] : perService.map(([service, text]) => `${text} ${service}`).join(', ');
    return row(name, schema as z.ZodType, column);
  });
  return { title: 'Every service (user, quote, billing, notification, compliance)', rows };
}

/**
 * The rest of the services' settings, one table per set of services that share a definition: a variable
 * defined once (a shared shape) is listed once, under every service that reads it.
 */
function serviceTables(): Table[] {
  const baseNames = new Set(Object.keys(baseConfigShape('user')));
  const variables: Array<{ name: string; schema: z.ZodType; services: ServiceName[] }> = [];
  for (const [service, shape] of services) {
    for (const [name, schema] of Object.entries(shape)) {
      if (baseNames.has(name)) continue;
      const known = variables.find((variable) => variable.schema === schema);
      if (known) known.services.push(service);
      else variables.push({ name, schema, services: [service] });
    }
  }
  const groups = new Map<string, { services: ServiceName[]; rows: Row[] }>();
  for (const variable of variables) {
    const key = variable.services.join(', ');
    const group = groups.get(key) ?? { services: variable.services, rows: [] };
    group.rows.push(row(variable.name, variable.schema));
    groups.set(key, group);
  }
  // Shared groups first (the more services, the earlier), then each service's own, in the catalog's order.
  return [...groups.entries()]
    .map(([title, group], index) => ({ title, group, index }))
    .sort((a, b) => b.group.services.length - a.group.services.length || a.index - b.index)
    .map(({ title, group }) => ({ title, rows: group.rows, note: notes[title] }));
}

function shapeTable(title: string, shape: Shape, note?: string): Table {
  return { title, rows: Object.entries(shape).map(([name, schema]) => row(name, schema)), note };
}

const notes: Record<string, string> = {
  billing: `Without Stripe keys the card provider is the local test-mode provider: test cards \`4242 4242 4242 4242\`
(works), \`4000 0000 0000 0002\` (declined), \`4000 0000 0000 0341\` (setup works, charges fail), \`4000 0027 6000 3184\`
(the bank asks the person to confirm it: Haven's test-mode stand-in page at \`/local-payments/authenticate\`). It never
charges anyone, so production (\`NODE_ENV=production\`) refuses to start billing with it unless \`ALLOW_LOCAL_PAYMENTS=1\`
says the deployment is a demo (compose and the Kubernetes dev overlay say so).`,
};

const devNote = `\`make dev\` uses fixed loopback ports: app 5173 (Vite), gateway 4000, services 4001–4005, MongoDB 27017,
Kafka 9092/9093, SMTP 1025, mail inbox 1080, trace viewer 9411 (Zipkin, http://localhost:9411/zipkin/: each request, its
events and e-mails as one trace; its jar, about 130 MB, is fetched once into the cache). Its data and logs live in
\`.haven/dev\` (git-ignored); \`make down\` stops the infrastructure and the viewer.`;

const introduction = `# Configuration

<!-- Generated by \`${regenerateCommand}\` (tools/docs/configuration.ts) from the environment schemas: edit a variable's
description where its schema is defined, then regenerate. -->

Every process reads its configuration from the environment; the defaults below apply when a variable is unset or
empty. A variable shown as \`NAME\` / \`NAME_FILE\` is a secret that may instead be read from the file \`NAME_FILE\` names
(how compose and Kubernetes mount secrets). In compose the values are in \`docker-compose.yml\`; in Kubernetes in
\`haven-config\` (shared), the Deployments (per app) and the Secrets. Booleans accept \`true\`/\`false\` (also \`1\`/\`0\`,
\`yes\`/\`no\`).

Each variable's meaning is the description on its zod schema: \`baseConfigShape\` and the shared shapes in
\`services/platform/src/config.ts\` and \`person-keys.ts\`, each service's \`services/<name>/src/config.ts\`, the gateway's
\`gateway/src/config.ts\`. Variables no schema parses (OpenTelemetry's, the tools' and tests') are described in
\`tools/docs/other-variables.ts\`.`;

const escapeCell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function renderTable(table: Table): string {
  const lines = [
    `## ${table.title}`,
    '',
    '| variable | default | meaning |',
    '| --- | --- | --- |',
    ...table.rows.map((r) => `| ${escapeCell(r.name)} | ${escapeCell(r.defaultText)} | ${escapeCell(r.meaning)} |`),
  ];
  if (table.note) lines.push('', table.note);
  return lines.join('\n');
}

export function configurationTables(): Table[] {
  const missing = serviceCatalog.filter(({ name }) => !services.some(([listed]) => listed === name));
  if (missing.length > 0) {
    throw new Error(`add ${missing.map(({ name }) => name).join(', ')} to the services of tools/docs/configuration.ts`);
  }
  return [
    everyServiceTable(),
    ...serviceTables(),
    shapeTable('gateway', gatewayConfigShape as Shape),
    shapeTable('Traces (every service and the gateway)', tracingVariables as Shape),
    shapeTable('Tools, tests and the web dev server', toolVariables as Shape, devNote),
  ];
}

/** The page's text before Prettier formats it. */
export function configurationMarkdown(): string {
  return [introduction, ...configurationTables().map(renderTable)].join('\n\n') + '\n';
}

/** The page as `make docs` writes it, formatted as Prettier keeps it. */
export async function renderConfigurationPage(): Promise<string> {
  // Loaded here, not at the top: the tables alone need no Prettier (and jest cannot load its ES modules).
  const prettier = await import('prettier');
  const options = await prettier.resolveConfig(configurationPagePath);
  return prettier.format(configurationMarkdown(), { ...options, filepath: configurationPagePath });
}

/** The first line where two texts part, to point at the stale variable rather than print two whole pages. */
export function firstDifference(current: string, generated: string): string {
  const a = current.split('\n');
  const b = generated.split('\n');
  const line = a.findIndex((text, index) => text !== b[index]);
  const at = line === -1 ? a.length : line;
  return `line ${at + 1}:\n  checked in: ${a[at] ?? '(end of file)'}\n  generated:  ${b[at] ?? '(end of file)'}`;
}

/** The checked-in page, empty when there is none (a missing page is stale too). */
export function checkedInPage(): string {
  try {
    return readFileSync(configurationPagePath, 'utf8');
  } catch {
    return '';
  }
}

/** Why the checked-in page is stale, or nothing when it is what the schemas generate. */
export function stalePageReport(current: string, generated: string): string | undefined {
  if (current === generated) return undefined;
  return `docs/configuration.md is out of date: run \`${regenerateCommand}\` and commit it.\n${firstDifference(current, generated)}`;
}

async function main(): Promise<void> {
  const page = await renderConfigurationPage();
  if (process.argv.includes('--check')) {
    const stale = stalePageReport(checkedInPage(), page);
    if (stale) {
      console.error(stale);
      process.exit(1);
    }
    console.log('docs/configuration.md is up to date');
    return;
  }
  writeFileSync(configurationPagePath, page);
  console.log(`wrote ${path.relative(repositoryRoot, configurationPagePath)}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
