/**
 * The data export: one JSON file with a fixed name holding everything Haven stores about the caller, each
 * service's own part (`User.<service>Export`) joined by the gateway. The completeness test enumerates every
 * collection of every service's database after a fully used account exists, and fails for a collection that holds
 * the user's data but is neither in the export nor in the reviewed list of collections without user data (each
 * service's DataMap).
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
import { billingDataMap } from '../../billing/src/events/erasure';
import { notificationDataMap } from '../../notification/src/events/erasure';
import { quoteDataMap } from '../../quote/src/events/erasure';
import { userDataMap } from '../../user/src/events/erasure';
import { complianceDataMap } from '../src/events/erasure';
import { collectionsOf, fullyUsedAccount, needlesOf, tracesOf, type UsedAccount } from '../../../tools/testing/erasure';
import { serviceNames, startTestHaven, type ServiceName, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { eventually } from '../../../tools/testing/eventually';
import { personKeyOf } from '../../../tools/testing/person-keys';

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
  // No cookie choice was made; the e-mail choices' time is emailPreferences.consentGivenAt, said once.
  expect(at('consents')).toEqual({ cookies: null });
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
    expect.arrayContaining(['billing', 'notification', 'quote', 'user']),
  );
});

/** Every leaf of a value with its dotted path (`[]` for an array's items), as text; ids as text. */
function leavesOf(value: unknown, path = '', into: Array<[string, string]> = []): Array<[string, string]> {
  if (value === null || value === undefined) return into;
  if (value instanceof Date) into.push([path, value.toISOString()]);
  else if (Array.isArray(value)) value.forEach((item) => leavesOf(item, `${path}.[]`, into));
  else if (typeof value === 'object' && !('_bsontype' in value)) {
    for (const [key, item] of Object.entries(value)) leavesOf(item, path ? `${path}.${key}` : key, into);
  } else into.push([path, String(value)]);
  return into;
}

/**
 * How the export may write a stored value: as it is, an instant also in Unix seconds (the spec's billing dates),
 * and content sealed under the person's key as its text.
 */
function writingsOf(value: string, personKey: Buffer | null): string[] {
  if (isSealedForPerson(value)) return personKey ? [openForPerson(personKey, account.userId, value) ?? value] : [value];
  const instant = /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(instant) ? [value] : [value, String(Math.floor(instant / 1000))];
}

/** The stored fields of the account's documents that the export does not carry, read against a fresh export. */
async function fieldsNotCarried(): Promise<{ notCarried: string[]; checked: Set<string> }> {
  const traces = await tracesOf(haven, needlesOf(account));
  const documents = new Map(traces.map((trace) => [`${trace.service}.${trace.collection}.${String(trace.id)}`, trace]));
  const stored: Array<{ name: string; role: Extract<CollectionRole, { exported: string }>; document: unknown }> = [];
  for (const { service, collection, id } of documents.values()) {
    const role = roleOf(service, collection);
    if (!role || !('exported' in role)) continue;
    const document = await (await haven.collection(service, collection)).findOne({ _id: id as never });
    stored.push({ name: `${service}.${collection}`, role, document });
  }
  // Read after the documents: whatever they hold, the export has had the chance to carry.
  const fresh = await account.client.get<Record<string, unknown>>('/api/user/data-export');
  // A value may sit anywhere in the export: the account's id, for one, is said once, not with every record.
  const exportedValues = new Set(leavesOf(fresh.body).map(([, value]) => value));
  const personKey = await personKeyOf(haven, account.userId);
  const notCarried = new Set<string>();
  const checked = new Set<string>();
  for (const { name, role, document } of stored) {
    const leftOut = Object.keys({ ...storageFields, ...role.leftOut });
    for (const [path, value] of leavesOf(document)) {
      if (leftOut.some((field) => path === field || path.startsWith(`${field}.`))) continue;
      checked.add(name);
      if (!writingsOf(value, personKey).some((writing) => exportedValues.has(writing))) {
        notCarried.add(`${name}: ${path} (${value.slice(0, 40)})`);
      }
    }
  }
  return { notCarried: [...notCarried].sort(), checked };
}

it('carries every stored field of the user’s documents, or says why one is left out (field by field)', async () => {
  // The account's last events (the weekly tally, a late e-mail) may still be landing: read again until both agree.
  let found = await fieldsNotCarried();
  await eventually(
    'the export carrying every stored field',
    async () => (found = await fieldsNotCarried()).notCarried.length === 0,
    { timeoutMs: 20_000, intervalMs: 500 },
  ).catch(() => undefined);
  expect(found.notCarried).toEqual([]);
  // Every service that keeps the account's data had its documents read.
  expect(new Set([...found.checked].map((name) => name.split('.')[0]))).toEqual(
    new Set(['billing', 'notification', 'quote', 'user']),
  );
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
