/**
 * The data export: one JSON file with a fixed name holding everything Haven stores about the caller, each
 * service's own part (`User.<service>Export`) joined by the gateway. The completeness tests work at two levels:
 * every collection of every service's database after a fully used account exists, which fails for a collection that
 * holds the user's data but is neither in the export nor in the reviewed list of collections without user data (each
 * service's DataMap); and every field of every exported collection's model, filled or not, which fails for a field
 * that is neither at its place in the export nor listed as left out with the reason.
 */
import {
  isSealedForPerson,
  openForPerson,
  platformDataMap,
  processedEventsCollection,
  storageFields,
  type CollectionRole,
  type DataMap,
} from '@haven/platform';
import { dateOfDay } from '@haven/domain';
import mongoose, { type Connection, type Schema } from 'mongoose';
import { billingDataMap } from '../../billing/src/events/erasure';
import { customerModel, subscriptionModel } from '../../billing/src/model/subscription';
import { notificationDataMap } from '../../notification/src/events/erasure';
import { deliveryModel } from '../../notification/src/model/delivery';
import { knownUserModel } from '../../notification/src/model/known-user';
import { preferencesModel } from '../../notification/src/model/preferences';
import { subscriberModel } from '../../notification/src/model/subscriber';
import { weeklyCheckInsModel } from '../../notification/src/model/weekly-check-ins';
import { dimensions } from '../../quote/src/domain/assessment';
import { emotionalStateRatings } from '../../quote/src/domain/progress';
import { decodeRatings } from '../../quote/src/domain/rating-codes';
import { quoteDataMap } from '../../quote/src/events/erasure';
import { checkInModel } from '../../quote/src/model/check-in';
import { privacySettingsModel } from '../../quote/src/model/privacy-settings';
import { progressModel } from '../../quote/src/model/progress';
import { quoteModel } from '../../quote/src/model/quote';
import { userDataMap } from '../../user/src/events/erasure';
import { safetyPlanModel } from '../../user/src/model/safety-plan';
import { sessionModel } from '../../user/src/model/session';
import { userModel } from '../../user/src/model/user';
import { complianceDataMap } from '../src/events/erasure';
import { userConsentModel } from '../src/model/consent';
import {
  collectionsOf,
  cookieChoice,
  fullyUsedAccount,
  needlesOf,
  tracesOf,
  type UsedAccount,
} from '../../../tools/testing/erasure';
import { serviceNames, startTestHaven, type ServiceName, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { eventually } from '../../../tools/testing/eventually';
import { personKeyOf } from '../../../tools/testing/person-keys';
import { testInfra } from '../../../tools/testing/test-env';

let haven: TestHaven;
let account: UsedAccount;
let exported: Record<string, unknown>;
let response: Response;

const dataMaps: Record<ServiceName, DataMap> = {
  user: userDataMap,
  quote: quoteDataMap,
  billing: billingDataMap,
  notification: notificationDataMap,
  compliance: complianceDataMap,
};

/** Each service's part of the export, in the order the file joins them. */
const exportParts: Record<ServiceName, string> = {
  user: 'accountExport',
  quote: 'quoteExport',
  billing: 'billingExport',
  notification: 'notificationExport',
  compliance: 'complianceExport',
};

beforeAll(async () => {
  haven = await startTestHaven();
  await Promise.all(Object.values(haven.services).map((service) => service.eventsReady));
  account = await fullyUsedAccount(haven, 'export');
  const answer = await account.client.get<Record<string, unknown>>('/api/user/data-export');
  expect(answer.status).toBe(200);
  exported = answer.body;
  response = await fetch(`${haven.gatewayUrl}/api/user/data-export`);
});

afterAll(async () => {
  await haven?.stop();
});

/** The value at a dotted path of the export ("billing.subscription"). */
function at(path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], exported);
}

function roleOf(service: ServiceName, collection: string): CollectionRole | undefined {
  if (collection.startsWith(processedEventsCollection(''))) return platformDataMap['processed_events_*'];
  return dataMaps[service][collection] ?? platformDataMap[collection];
}

it('is one JSON file with a fixed name, for the signed-in user only', async () => {
  const download = await account.client.request('GET', '/api/user/data-export');
  expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="?haven-data-export\.json"?$/);
  expect(download.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.status).toBe(401);
});

it('holds every item the user created', () => {
  expect(at('account')).toMatchObject({
    id: account.userId,
    email: account.email,
    firstName: account.firstName,
    lastName: account.lastName,
    emailVerified: true,
    timeZone: 'Europe/London',
    authProvider: 'email',
  });
  // Sessions without their secrets: the registration's and the export's own browser.
  const sessions = at('account.sessions') as Array<Record<string, unknown>>;
  expect(sessions.length).toBeGreaterThanOrEqual(1);
  expect(Object.keys(sessions[0]!).sort()).toEqual(['createdAt', 'current', 'expiresAt', 'id']);
  expect(JSON.stringify(exported)).not.toMatch(/passwordHash|tokenHash|\$argon2/);

  const checkIns = at('checkIns') as Array<{ notes: string; ratings: Record<string, number> }>;
  expect(checkIns.map((checkIn) => checkIn.notes)).toEqual(account.notes);
  expect(checkIns[0]!.ratings).toMatchObject({ stressLevel: 4, sleepQuality: 2, hopeForFuture: 3 });
  expect((at('quotes') as Array<{ id: string }>).map((quote) => quote.id)).toEqual(account.quoteIds);
  expect(at('favorites')).toEqual([account.favoriteQuoteId]);
  expect((at('insights') as Array<{ insightType: string }>).map((insight) => insight.insightType)).toContain(
    'weekly_summary',
  );
  expect(at('progress')).toMatchObject({ entries: 2 });
  expect(at('privacySettings')).toEqual({ allowInsights: true, keepNotes: true });
  expect(at('safetyPlan')).toMatchObject({
    warningSigns: account.safetyPlanWarningSigns,
    peopleToAsk: 'My sister',
    copingStrategies: '',
    updatedAt: expect.any(String),
  });

  expect(at('billing.subscription')).toMatchObject({ status: 'trialing', isTrialing: true, trialUsed: true });
  expect((at('billing.subscription.history') as Array<{ event: string }>).map((entry) => entry.event)).toEqual([
    'billing.trial_started',
  ]);
  expect(at('billing.customer')).toMatchObject({ billingEmail: account.email });
  // The test card's number, not any "4242" (a Unix time or a provider's id can hold those digits).
  expect(JSON.stringify(at('billing'))).not.toMatch(/4242\D?4242\D?4242\D?4242|cardNumber|"last4"/);

  expect(at('emailPreferences')).toMatchObject({
    marketingEmails: true,
    productUpdates: true,
    securityNotifications: true,
    newsletter: true,
    weeklySummary: false,
    checkInReminder: false,
    reminderHour: 19,
    address: account.email,
    consentGivenAt: expect.any(String),
  });
  expect(at('newsletter.subscriptions')).toEqual([
    expect.objectContaining({ email: account.email, status: 'active', source: 'website' }),
  ]);
  const kinds = (at('emails.deliveries') as Array<{ kind: string; to: string }>).map((delivery) => delivery.kind);
  expect(kinds).toEqual(expect.arrayContaining(['verify-email', 'billing-welcome', 'newsletter-confirmation']));
  // The cookie choice; the e-mail choices' time is emailPreferences.consentGivenAt, said once.
  expect(at('consents')).toEqual({
    cookies: { ...cookieChoice, consentGivenAt: expect.any(String), policyVersion: expect.any(String) },
  });
});

it('joins each service’s own part: the sections of a service’s collections are in that service’s part', async () => {
  const fields = Object.values(exportParts).map((field) => `${field} { sections }`);
  const answer = await account.client.graphql<{ me: Record<string, { sections: string }> }>(
    `{ me { ${fields.join(' ')} } }`,
  );
  expect(answer.body.errors).toBeUndefined();
  const sectionsOf = (service: ServiceName) =>
    Object.keys(JSON.parse(answer.body.data!.me[exportParts[service]]!.sections) as Record<string, unknown>);
  const services = Object.keys(exportParts) as ServiceName[];
  // The file is its format and time, then every part's sections, each named once.
  expect(exported.format).toBe('haven-data-export/2');
  expect(Object.keys(exported)).toEqual(['format', 'exportedAt', ...services.flatMap(sectionsOf)]);
  const misplaced = services.flatMap((service) =>
    Object.entries(dataMaps[service]).flatMap(([collection, role]) =>
      'exported' in role && !sectionsOf(service).includes(role.exported.split('.')[0]!)
        ? [`${service}.${collection} → ${role.exported}`]
        : [],
    ),
  );
  expect(misplaced).toEqual([]);
});

it('leaves out no collection that holds user data (every collection of every service, reviewed)', async () => {
  const unreviewed: string[] = [];
  const missingFromExport: string[] = [];
  const traces = await tracesOf(haven, needlesOf(account));
  const withUserData = new Set(traces.map((trace) => `${trace.service}.${trace.collection}`));
  // Bookkeeping may name the account by its id, nothing more.
  const withPersonalData = new Set(
    traces
      .filter((trace) => trace.needle !== account.userId.toLowerCase())
      .map((trace) => `${trace.service}.${trace.collection}`),
  );
  for (const service of serviceNames) {
    for (const collection of await collectionsOf(haven, service)) {
      const role = roleOf(service, collection);
      const name = `${service}.${collection}`;
      if (!role) {
        unreviewed.push(name);
        continue;
      }
      if ('noUserData' in role && withUserData.has(name)) unreviewed.push(`${name} (listed as holding no user data)`);
      if ('bookkeeping' in role && withPersonalData.has(name)) unreviewed.push(`${name} (listed as bookkeeping)`);
      if ('exported' in role && withUserData.has(name)) {
        const value = at(role.exported);
        if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) {
          missingFromExport.push(`${name} → ${role.exported}`);
        }
      }
    }
  }
  expect({ unreviewed, missingFromExport }).toEqual({ unreviewed: [], missingFromExport: [] });
  // The account touched every service that keeps user data, so the check above saw each of them.
  expect([...withUserData].map((name) => name.split('.')[0]).sort()).toEqual(
    expect.arrayContaining(['billing', 'compliance', 'notification', 'quote', 'user']),
  );
});

/**
 * Each service's models of the collections it exports, registered on a connection of the test's own (creating
 * no collection and no index): their schemas say which fields a stored record can have, filled or not.
 */
const modelsOf: Record<ServiceName, Array<(connection: Connection) => unknown>> = {
  user: [userModel, sessionModel, safetyPlanModel],
  quote: [checkInModel, quoteModel, progressModel, privacySettingsModel],
  billing: [subscriptionModel, customerModel],
  notification: [preferencesModel, knownUserModel, weeklyCheckInsModel, subscriberModel, deliveryModel],
  compliance: [userConsentModel],
};

/**
 * Where the export writes a stored field under another name: its path in the exported record, or (starting with
 * `/`) in the whole file. Every other field is written under its own name, `_id` as `id`.
 */
const writtenAs: Record<string, Record<string, string>> = {
  'quote.check_ins': Object.fromEntries(dimensions.map((dimension) => [dimension, `ratings.${dimension}`])),
  'billing.subscriptions': {
    provider: '/billing.provider',
    customerId: '/billing.customer.customerId',
    email: '/billing.customer.billingEmail',
    createdAt: 'startedAt',
  },
  'billing.customers': { provider: '/billing.provider', email: 'billingEmail' },
  'billing.subscription_history': { occurredAt: 'at' },
  'notification.known_users': { email: 'address' },
  'notification.weekly_check_ins': { days: '/emails.weeklySummaryTally' },
  'notification.newsletter_subscribers': { createdAt: 'subscribedAt' },
};

interface ExportedModel {
  name: string;
  service: ServiceName;
  role: Extract<CollectionRole, { exported: string }>;
  /** Every field a record can have: a dotted path, `[]` for an array's items. */
  fields: string[];
}

type SchemaPath = {
  schema?: Schema;
  $isMongooseDocumentArray?: boolean;
  $isSingleNested?: boolean;
  $isMongooseArray?: boolean;
};

/** The fields of a schema, down to the leaves of its subdocuments and arrays. */
function fieldsOf(schema: Schema, prefix = ''): string[] {
  const fields: string[] = [];
  schema.eachPath((path, type) => {
    const field = prefix ? `${prefix}.${path}` : path;
    const kind = type as unknown as SchemaPath;
    if (kind.schema && kind.$isMongooseDocumentArray) fields.push(...fieldsOf(kind.schema, `${field}.[]`));
    else if (kind.schema && kind.$isSingleNested) fields.push(...fieldsOf(kind.schema, field));
    else if (kind.$isMongooseArray) fields.push(`${field}.[]`);
    else fields.push(field);
  });
  return fields;
}

const under = (field: string, names: string[]) => names.some((name) => field === name || field.startsWith(`${name}.`));

const leftOutOf = (model: ExportedModel) => Object.keys({ ...storageFields, ...model.role.leftOut });

/** Every collection a data map says is exported, with its model's fields; a collection without a model throws. */
async function exportedModels(): Promise<ExportedModel[]> {
  const connection = await mongoose
    .createConnection(testInfra().mongoUrl, { dbName: 'export-schemas', autoCreate: false, autoIndex: false })
    .asPromise();
  try {
    const models: ExportedModel[] = [];
    for (const service of serviceNames) {
      const before = new Set(connection.modelNames());
      for (const register of modelsOf[service]) register(connection);
      const schemas = new Map(
        connection
          .modelNames()
          .filter((name) => !before.has(name))
          .map((name) => [connection.model(name).collection.collectionName, connection.model(name).schema] as const),
      );
      for (const [collection, role] of Object.entries(dataMaps[service])) {
        if (!('exported' in role)) continue;
        const schema = schemas.get(collection);
        if (!schema) throw new Error(`no model of ${service}.${collection} in modelsOf`);
        models.push({ name: `${service}.${collection}`, service, role, fields: fieldsOf(schema) });
      }
    }
    return models;
  } finally {
    await connection.close();
  }
}

/** The values under a field (`[]` walks an array's items); a missing or null value gives none. */
function valuesAt(value: unknown, path: string[]): unknown[] {
  if (value === null || value === undefined) return [];
  const [head, ...rest] = path;
  if (head === undefined) return [value];
  if (head === '[]') return Array.isArray(value) ? value.flatMap((item) => valuesAt(item, rest)) : [];
  if (typeof value !== 'object' || value instanceof Date) return [];
  return valuesAt((value as Record<string, unknown>)[head], rest);
}

/** Whether the export has a place for a field: each name on its path is there, down to a null or an empty list. */
function hasPlace(value: unknown, path: string[]): boolean {
  const [head, ...rest] = path;
  if (head === undefined || value === null || value === undefined) return true;
  if (head === '[]') return Array.isArray(value) && value.every((item) => hasPlace(item, rest));
  if (typeof value !== 'object' || Array.isArray(value) || !(head in value)) return false;
  return hasPlace((value as Record<string, unknown>)[head], rest);
}

const textOf = (value: unknown) =>
  value instanceof Date
    ? value.toISOString()
    : typeof value === 'object' && value !== null
      ? JSON.stringify(value)
      : String(value);

/** A sealed rating code (a check-in's ratings, a quote's emotional state) as the export writes it: by name. */
const ratingsWritten = (code: string) =>
  [decodeRatings(dimensions, code), decodeRatings(emotionalStateRatings, code)]
    .filter((ratings) => ratings !== null)
    .map((ratings) => JSON.stringify(ratings));

/** A weekly tally's sealed days as the export writes them: each day by its date. */
const tallyWritten = (opened: string): string[] => {
  try {
    const days = JSON.parse(opened) as Array<{ day: number; checkIns: number; moodSum: number }>;
    if (!Array.isArray(days) || !days.every((entry) => typeof entry?.day === 'number')) return [];
    return [JSON.stringify(days.map(({ day, checkIns, moodSum }) => ({ date: dateOfDay(day), checkIns, moodSum })))];
  } catch {
    return [];
  }
};

/**
 * How the export may write a stored value: as it is, an instant also in Unix seconds (as the /api contract writes billing's dates),
 * and content sealed under the person's key as its text (ratings as the ratings by name).
 */
function writingsOf(value: string, personKey: Buffer | null): string[] {
  if (isSealedForPerson(value)) {
    const opened = personKey ? openForPerson(personKey, account.userId, value) : null;
    return opened === null ? [value] : [opened, ...ratingsWritten(opened), ...tallyWritten(opened)];
  }
  const instant = /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(instant) ? [value] : [value, String(Math.floor(instant / 1000))];
}

/**
 * The fields of one stored record the export does not carry where it names them: a filled field's every value
 * must be among the values at its exported name, an empty one must still have its place.
 */
function missesOf(
  model: ExportedModel,
  document: unknown,
  record: unknown,
  file: unknown,
  personKey: Buffer | null,
): string[] {
  const misses: string[] = [];
  const leftOut = leftOutOf(model);
  for (const field of model.fields.filter((each) => !under(each, leftOut))) {
    const target = writtenAs[model.name]?.[field] ?? (field === '_id' ? 'id' : field);
    const [base, path] = target.startsWith('/') ? [file, target.slice(1)] : [record, target];
    const segments = path.split('.');
    const stored = valuesAt(document, field.split('.')).map(textOf);
    if (stored.length === 0) {
      if (!hasPlace(base, segments)) misses.push(`${model.name}: ${field} (no ${target} in the export)`);
      continue;
    }
    const written = new Set(valuesAt(base, segments).map(textOf));
    for (const value of stored) {
      if (!writingsOf(value, personKey).some((writing) => written.has(writing))) {
        misses.push(`${model.name}: ${field} (${value.slice(0, 40)} not at ${target})`);
      }
    }
  }
  return misses;
}

/** The stored fields of the account's documents the export does not carry, read against a fresh export. */
async function fieldsNotCarried(models: ExportedModel[]): Promise<{ notCarried: string[]; checked: Set<string> }> {
  const traces = await tracesOf(haven, needlesOf(account));
  const ids = new Map<string, Set<unknown>>();
  for (const { service, collection, id } of traces) {
    const name = `${service}.${collection}`;
    ids.set(name, (ids.get(name) ?? new Set()).add(id));
  }
  const stored: Array<{ model: ExportedModel; document: unknown }> = [];
  for (const model of models) {
    const [service, collection] = [model.service, model.name.slice(model.service.length + 1)];
    for (const id of ids.get(model.name) ?? []) {
      const document = await (await haven.collection(service, collection)).findOne({ _id: id as never });
      if (document) stored.push({ model, document });
    }
  }
  // Read after the documents: whatever they hold, the export has had the chance to carry.
  const file = (await account.client.get<Record<string, unknown>>('/api/user/data-export')).body;
  const personKey = await personKeyOf(haven, account.userId);
  const notCarried = new Set<string>();
  const checked = new Set<string>();
  for (const { model, document } of stored) {
    checked.add(model.name);
    const section = model.role.exported
      .split('.')
      .reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], file);
    // A list holds one record per document: the document's own is the one that carries most of it.
    const records = Array.isArray(section) ? section : [section];
    const misses = records
      .map((record) => missesOf(model, document, record, file, personKey))
      .reduce<string[] | null>((best, each) => (best === null || each.length < best.length ? each : best), null);
    for (const miss of misses ?? missesOf(model, document, undefined, file, personKey)) notCarried.add(miss);
  }
  return { notCarried: [...notCarried].sort(), checked };
}

it('names, for every field of every exported model, its place in the export or why it is left out', async () => {
  const models = await exportedModels();
  const unreasoned: string[] = [];
  const stale: string[] = [];
  for (const model of models) {
    for (const [field, reason] of Object.entries(model.role.leftOut ?? {})) {
      if (!reason.trim()) unreasoned.push(`${model.name}: ${field}`);
      if (!model.fields.some((each) => under(each, [field]))) stale.push(`${model.name}: leftOut ${field}`);
    }
    for (const field of Object.keys(writtenAs[model.name] ?? {})) {
      if (!model.fields.includes(field) || under(field, leftOutOf(model)))
        stale.push(`${model.name}: writtenAs ${field}`);
    }
  }
  for (const name of Object.keys(writtenAs)) {
    if (!models.some((model) => model.name === name)) stale.push(`writtenAs ${name}`);
  }
  expect({ unreasoned, stale }).toEqual({ unreasoned: [], stale: [] });
  // The walk reaches into subdocuments and lists.
  const fields = (name: string) => models.find((model) => model.name === name)!.fields;
  expect(fields('user.users')).toEqual(expect.arrayContaining(['pendingEmail.address', 'identities.[].subject']));
  expect(fields('notification.weekly_check_ins')).toEqual(expect.arrayContaining(['days', 'streak.run']));
});

it('carries every stored field of the user’s documents, or says why one is left out (field by field)', async () => {
  const models = await exportedModels();
  // The account's last events (the weekly tally, a late e-mail) may still be landing: read again until both agree.
  let found = await fieldsNotCarried(models);
  await eventually(
    'the export carrying every stored field',
    async () => (found = await fieldsNotCarried(models)).notCarried.length === 0,
    { timeoutMs: 20_000, intervalMs: 500 },
  ).catch(() => undefined);
  expect(found.notCarried).toEqual([]);
  // The account filled every exported collection, so every model's fields were compared with stored values.
  expect([...found.checked].sort()).toEqual(models.map((model) => model.name).sort());
});

it('is open to a user who never finished setup (data rights are never premium)', async () => {
  const client = new ApiClient(haven.gatewayUrl);
  const email = uniqueEmail('nosetup');
  expect((await client.post('/api/auth/register', { email, password: 'a long enough password' })).status).toBe(201);
  const answer = await client.get<{
    account: { email: string };
    checkIns: unknown[];
    billing: { subscription: { needsSetup: boolean } };
  }>('/api/user/data-export');
  expect(answer.status).toBe(200);
  expect(answer.body.account.email).toBe(email);
  expect(answer.body.checkIns).toEqual([]);
  expect(answer.body.billing.subscription.needsSetup).toBe(true);
});
