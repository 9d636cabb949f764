/**
 * The admin list's figures: the admin's user list at 100,000 accounts. The accounts are written straight into the
 * user service's database (the documents the user service itself keeps, billing's status included, as its
 * event consumer writes it), then the admin asks through the REST facade, one request at a time: a search, a
 * page deep in the whole list, a status filter, and the four counts. p50 and p99 of each (ms).
 */
import mongoose from 'mongoose';
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { hash } from '@node-rs/argon2';
import { hashVerificationToken, verificationTtlMs } from '../../services/user/src/domain/verification';
import { eventually } from '../testing/eventually';
import { ApiClient } from '../testing/http';
import { summarizeLatencies } from './report';

export const benchAdminEmail = 'bench-admin@example.com';

export interface AdminListTarget {
  label: string;
  path: string;
  /** Accounts that match, from X-Total-Count (the user stats for the counts). */
  matched: number;
  /** Of the 200 answers (NaN when none). */
  p50Ms: number;
  p99Ms: number;
  samples: number;
  /** 5xx answers by status (a 503 is the gateway's deadline, SUBGRAPH_TIMEOUT_MS; a 500 the database failing). */
  failures: Record<string, number>;
}

export interface AdminListBenchResult {
  users: number;
  seedSeconds: number;
  loadAverageBefore: number[];
  loadAverageAfter: number[];
  targets: AdminListTarget[];
}

const firstNames = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'Ken', 'Radia', 'Tim'];
const lastNames = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Allen', 'Thompson', 'Perlman'];
const statuses = ['active', 'trialing', 'trial_expired', 'canceled', null, null] as const;
/**
 * Billing's revision once a subscription reaches each status: a trial started (1) and charged (2); a trial cancelled
 * (2) and run out (3); a paid period cancelled (3) and ended (4).
 */
const revisionOf = { active: 2, trialing: 1, trial_expired: 3, canceled: 4 } as const;
const hour = 3_600_000;
const day = 24 * hour;

/**
 * `count` accounts over two years, a third unverified, a spread of billing statuses, each as the user service leaves
 * it: a password hash (one for all, made by the service's own argon2), an unverified account's link (long expired),
 * and billing's status as its events set it (a trial still running ends within three days).
 */
export async function seedUsers(mongoUrl: string, count: number, dbName = 'haven_user'): Promise<number> {
  const connection = await mongoose.createConnection(mongoUrl, { dbName }).asPromise();
  const started = performance.now();
  try {
    const users = connection.db!.collection<{ _id: string }>('users');
    const passwordHash = await hash('seeded-password-1');
    const span = 2 * 365 * day;
    const now = Date.now();
    for (let from = 0; from < count; from += 5_000) {
      const batch = [];
      for (let index = from; index < Math.min(count, from + 5_000); index += 1) {
        const createdAt = new Date(now - span + Math.round((span * index) / count));
        const status = statuses[index % statuses.length]!;
        const verified = index % 3 !== 0;
        batch.push({
          _id: randomUUID(),
          email: `seeded.person${index}@example${index % 40}.com`,
          passwordHash,
          firstName: firstNames[index % firstNames.length],
          lastName: `${lastNames[index % lastNames.length]}${index % 97}`,
          profileImageUrl: null,
          authProvider: 'email',
          emailVerifiedAt: verified ? createdAt : null,
          emailVerification: verified
            ? null
            : {
                tokenHash: hashVerificationToken(randomUUID()),
                expiresAt: new Date(createdAt.getTime() + verificationTtlMs),
              },
          passwordReset: null,
          pendingEmail: null,
          timeZone: 'UTC',
          identities: [],
          pendingLink: null,
          subscriptionStatus: status,
          trialEndsAt:
            status === 'trialing'
              ? new Date(now + day + (index % 48) * hour)
              : status
                ? new Date(createdAt.getTime() + 3 * day)
                : null,
          subscriptionRevision: status ? revisionOf[status] : null,
          outbox: [],
          outboxVersion: 0,
          createdAt,
          updatedAt: createdAt,
        });
      }
      await users.insertMany(batch, { ordered: false });
    }
  } finally {
    await connection.close();
  }
  return Math.round((performance.now() - started) / 100) / 10;
}

/** The verification link the user service sent `address`, read from the bench's mail catcher (maildev). */
async function verificationTokenFor(mailWebUrl: string, address: string): Promise<string> {
  return eventually(
    `the verification e-mail to ${address}`,
    async () => {
      const response = await fetch(`${mailWebUrl.replace(/\/+$/, '')}/email`, { signal: AbortSignal.timeout(5_000) });
      const emails = (await response.json()) as Array<{ to?: Array<{ address: string }>; text?: string }>;
      const email = emails.find((candidate) => candidate.to?.some((to) => to.address === address));
      const link = /https?:\/\/\S+\/verify-email\?token=[\w-]+/.exec(email?.text ?? '')?.[0];
      return link ? new URL(link).searchParams.get('token') : null;
    },
    { timeoutMs: 60_000, intervalMs: 250 },
  );
}

/** Registers the bench's admin (ADMIN_EMAIL of the bench's apps) and verifies the address through its link. */
async function adminClient(gatewayUrl: string, mailWebUrl: string): Promise<ApiClient> {
  const client = new ApiClient(gatewayUrl);
  const registered = await client.post('/api/auth/register', {
    email: benchAdminEmail,
    password: 'bench-password-1',
    firstName: 'Bench',
  });
  if (registered.status !== 201) throw new Error(`registering the admin answered ${registered.status}`);
  const token = await verificationTokenFor(mailWebUrl, benchAdminEmail);
  const verified = await client.get(`/api/auth/verify-email?token=${token}`);
  if (verified.status !== 200) throw new Error(`verifying the admin answered ${verified.status}`);
  return client;
}

async function measureTarget(
  client: ApiClient,
  label: string,
  path: string,
  samples: number,
): Promise<AdminListTarget> {
  const times: number[] = [];
  const failures: Record<string, number> = {};
  let matched = 0;
  // One unmeasured request first (a cold path), then the samples.
  for (let round = 0; round <= samples; round += 1) {
    const started = performance.now();
    const response = await client.get<Record<string, number> | unknown[]>(path);
    const elapsed = performance.now() - started;
    if (response.status !== 200) {
      // A refusal is the bench's own mistake; a 5xx is a figure (the deadline, or the database failing).
      if (response.status < 500) throw new Error(`${label}: GET ${path} answered ${response.status}`);
      if (round > 0) failures[response.status] = (failures[response.status] ?? 0) + 1;
      continue;
    }
    matched = Array.isArray(response.body)
      ? Number(response.headers.get('x-total-count'))
      : (response.body as Record<string, number>).totalUsers!;
    if (round > 0) times.push(elapsed);
  }
  const summary = summarizeLatencies(times);
  return {
    label,
    path,
    matched,
    p50Ms: Math.round(summary.p50),
    p99Ms: Math.round(summary.p99),
    samples,
    failures,
  };
}

export async function benchAdminList(
  gatewayUrl: string,
  infra: { mongoUrl: string; mailWebUrl: string },
  log: (line: string) => void,
  { users = 100_000, samples = 10 }: { users?: number; samples?: number } = {},
): Promise<AdminListBenchResult> {
  const client = await adminClient(gatewayUrl, infra.mailWebUrl);
  log(`admin list: seeding ${users.toLocaleString('en')} accounts into haven_user`);
  const seedSeconds = await seedUsers(infra.mongoUrl, users);
  log(`admin list: seeded in ${seedSeconds} s; ${samples} requests per target, one at a time`);
  const loadAverageBefore = loadavg();
  const targets = [
    await measureTarget(client, 'search (e-mail fragment, 1 match)', '/api/admin/users?q=person4242%40', samples),
    await measureTarget(client, 'search (a last name)', '/api/admin/users?q=turing42', samples),
    await measureTarget(
      client,
      'one page (page 200 of the whole list)',
      '/api/admin/users?page=200&pageSize=25',
      samples,
    ),
    await measureTarget(client, 'status filter (trial, page 1)', '/api/admin/users?status=trial', samples),
    await measureTarget(client, 'the four counts', '/api/admin/user-stats', samples),
  ];
  return { users, seedSeconds, loadAverageBefore, loadAverageAfter: loadavg(), targets };
}

export function formatAdminListResult(result: AdminListBenchResult): string {
  const load = (values: number[]) => values.map((value) => value.toFixed(1)).join(' ');
  const lines = [
    `Admin user list: ${result.users.toLocaleString('en')} accounts (seeded in ${result.seedSeconds} s), ` +
      `load average ${load(result.loadAverageBefore)} → ${load(result.loadAverageAfter)}`,
  ];
  for (const target of result.targets) {
    lines.push(
      `  ${target.label.padEnd(40)} matched ${String(target.matched).padStart(6)}  ` +
        `p50 ${String(target.p50Ms).padStart(6)} ms  p99 ${String(target.p99Ms).padStart(6)} ms  (n=${target.samples}` +
        `${Object.entries(target.failures)
          .map(([status, count]) => `, ${count}× ${status}`)
          .join('')})`,
    );
  }
  return lines.join('\n');
}
