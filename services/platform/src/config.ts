import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { catalogEntry, localGraphqlUrl, type ServiceName } from './catalog';

export class ConfigError extends Error {}

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const brokerList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((broker) => broker.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string()).min(1, 'at least one broker'));

export const subgraphSecret = z.string().trim().min(16, { message: 'must be at least 16 characters' }).optional();

const positive = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/**
 * The numbers of each `@rateLimit` class (limits.ts, `rateLimitsOf`), held by the gateway and every service:
 * sign-in 10 a minute per client, mail 5 an hour per recipient, costly 30 an hour per account, ordinary 60 a
 * minute per account; and the data export's, one per 5 minutes per account.
 */
export const rateLimitConfigShape = {
  RATE_LIMIT_AUTH_MAX: positive(10).describe(
    'attempts per client address (IPv6 by its /64) per window at each `SIGN_IN` field (`@rateLimit(class: "SIGN_IN")`: sign-in, registration, reset, …) and each `MAIL` field, however the operation is spelled; counted by the gateway and again in the service (counters in its own database)',
  ),
  RATE_LIMIT_AUTH_WINDOW_MS: positive(60_000).describe('the window of `RATE_LIMIT_AUTH_MAX`'),
  RATE_LIMIT_MAIL_MAX: positive(5).describe(
    '`MAIL` fields per recipient (the address argument the field names, hashed; else the signed-in account), counted by the services',
  ),
  RATE_LIMIT_MAIL_WINDOW_MS: positive(60 * 60_000).describe('the window of `RATE_LIMIT_MAIL_MAX`'),
  RATE_LIMIT_COSTLY_MAX: positive(30).describe(
    '`COSTLY` fields (check-ins, card setup) per account, per client when signed out, counted by the services',
  ),
  RATE_LIMIT_COSTLY_WINDOW_MS: positive(60 * 60_000).describe('the window of `RATE_LIMIT_COSTLY_MAX`'),
  RATE_LIMIT_ORDINARY_MAX: positive(60).describe(
    'every other mutation (`ORDINARY`) per account, per client when signed out, counted by the services',
  ),
  RATE_LIMIT_ORDINARY_WINDOW_MS: positive(60_000).describe('the window of `RATE_LIMIT_ORDINARY_MAX`'),
  /** The data export, per account, counted by the gateway (its routes read every service). */
  RATE_LIMIT_EXPORT_MAX: positive(1).describe(
    "data exports per account: the gateway's two export routes (which share the budget), and the quote service's `User.quoteExport` through GraphQL",
  ),
  RATE_LIMIT_EXPORT_WINDOW_MS: positive(5 * 60_000).describe('the window of `RATE_LIMIT_EXPORT_MAX`'),
};

/** The services' own secret (never the gateway's): it opens the operations marked `@internal`. */
export const serviceSecret = z.string().trim().min(16, { message: 'must be at least 16 characters' }).optional();

/** Where a server listens when HOST is not set: loopback except in production (behind a network policy). */
export function defaultHost(nodeEnv: string): string {
  return nodeEnv === 'production' ? '0.0.0.0' : '127.0.0.1';
}

/** Production refuses to start without the subgraph secret: a subgraph would otherwise answer anyone. */
export function requireSubgraphSecretInProduction(config: { NODE_ENV: string; SUBGRAPH_SECRET?: string }): void {
  if (config.NODE_ENV === 'production' && !config.SUBGRAPH_SECRET) {
    throw new ConfigError('Invalid configuration:\n  SUBGRAPH_SECRET: required in production');
  }
}

/** Production refuses to start a service without the service secret: the deletion saga could not run. */
export function requireServiceSecretInProduction(config: { NODE_ENV: string; SERVICE_SECRET?: string }): void {
  if (config.NODE_ENV === 'production' && !config.SERVICE_SECRET) {
    throw new ConfigError('Invalid configuration:\n  SERVICE_SECRET: required in production');
  }
}

/** What the configuration reference says of a secret production cannot start without. */
const requiredInProduction = '— (required in production)';

/** HOST's default, which depends on NODE_ENV (defaultHost). */
export const hostUnset = '`127.0.0.1`, `0.0.0.0` when `NODE_ENV=production`';

/** How many unpublished events one entity may hold by default (OUTBOX_MAX_PENDING). */
export const defaultOutboxBacklog = 50;

/** Settings every process reads, the gateway's included; each process says what its port and mode mean to it. */
export const nodeEnvSetting = z.enum(['development', 'test', 'production']).default('development');
export const logLevelSetting = z
  .enum(logLevels)
  .default('info')
  .describe('pino level: `fatal` `error` `warn` `info` `debug` `trace` `silent`');
export const portSetting = (defaultPort: number) => z.coerce.number().int().min(0).max(65535).default(defaultPort);

/** Settings every service reads; described in docs/configuration.md (`make docs`). The default port is the catalog's. */
export function baseConfigShape(service: ServiceName, defaultPort: number = catalogEntry(service).port) {
  return {
    NODE_ENV: nodeEnvSetting.describe('`development`, `test` or `production`'),
    LOG_LEVEL: logLevelSetting,
    PORT: portSetting(defaultPort).describe('HTTP port (`/graphql`, `/healthz`, `/readyz`, `/metrics`)'),
    MONGO_URL: z
      .string()
      .startsWith('mongodb')
      .default('mongodb://127.0.0.1:27017')
      .describe('MongoDB connection string'),
    MONGO_DB: z.string().min(1).default(`haven_${service}`).describe("the service's own database; never shared"),
    KAFKA_BROKERS: brokerList.default(['127.0.0.1:9092']).describe('comma-separated `host:port` bootstrap brokers'),
    KAFKA_CLIENT_ID: z.string().min(1).default(`haven-${service}`).describe('Kafka client id'),
    /**
     * The service's Kafka user (SASL SCRAM-SHA-512), as in Kubernetes, where the broker allows it only its own
     * topic and groups (kafka-access.ts). Unset: no sign-in (development, tests).
     */
    KAFKA_SASL_USERNAME: z
      .string()
      .min(1)
      .optional()
      .describe(
        "the service's Kafka user (SASL SCRAM-SHA-512), which the broker lets publish on the service's own topic only (`services/platform/src/kafka-access.ts`); set both or neither",
      ),
    KAFKA_SASL_PASSWORD: z.string().min(1).optional().describe('the password of `KAFKA_SASL_USERNAME`'),
    JWT_PUBLIC_KEY: z
      .string()
      .includes('PUBLIC KEY', { message: 'must be a PEM public key' })
      .describe('PEM ES256 public key that verifies session tokens'),
    /** Loopback unless set: in development nothing but this machine reaches a subgraph. */
    HOST: z.string().min(1).optional().meta({ description: 'the address the service listens on', unset: hostUnset }),
    /** The gateway's shared secret; requests without it are refused (required in production). */
    SUBGRAPH_SECRET: subgraphSecret.meta({
      description:
        "the gateway's shared secret; `/graphql` refuses requests without it (401) or with a wrong one (403)",
      unset: requiredInProduction,
    }),
    /**
     * Held by every service and never by the gateway: sent with a call to another subgraph (askSubgraph), and
     * required for the operations marked `@internal` (required in production).
     */
    SERVICE_SECRET: serviceSecret.meta({
      description:
        "the services' own credential, never given to the gateway: sent on a service's calls to another subgraph, and required by the operations marked `@internal` (403 without it); e-mailed links' tokens travel to the mailer sealed under a key derived from it",
      unset: requiredInProduction,
    }),
    ...rateLimitConfigShape,
    /**
     * The key of the erasure records (keyed hashes of erased users' ids, erasure.ts). Unset: derived from
     * SUBGRAPH_SECRET (then rotating that secret also renames the records; set this one in production).
     */
    ERASURE_HMAC_SECRET: z.string().trim().min(16, { message: 'must be at least 16 characters' }).optional().meta({
      description:
        "key of the erasure records (keyed hashes of deleted users' ids); set it in production, and do not rotate it",
      unset: 'derived from `SUBGRAPH_SECRET`',
    }),
    /** How long Kafka keeps Haven's events (topics and dead letters), set on every topic by ensureTopics. */
    KAFKA_RETENTION_MS: z.coerce
      .number()
      .int()
      .min(60 * 60 * 1000, { message: 'must be at least an hour' })
      // A record may outlive retention by its segment's day (kafka.ts): the two stay within the 14 days.
      .max(13 * 24 * 60 * 60 * 1000, { message: 'must stay a day under the consumers’ 14 days of processed ids' })
      .default(7 * 24 * 60 * 60 * 1000)
      .describe(
        "how long Kafka keeps Haven's events and dead letters (`retention.ms`, set on every topic at start, with day-long segments so a record goes at most a day later)",
      ),
    /**
     * How long a consumer that stops heartbeating stays in its group: a crashed replica's partitions wait this
     * long before another takes them (Kafka's group.min.session.timeout.ms is 6 s).
     */
    KAFKA_SESSION_TIMEOUT_MS: z.coerce
      .number()
      .int()
      .min(6_000, { message: 'must be at least 6 seconds (the broker’s minimum)' })
      .max(5 * 60_000, { message: 'must be at most 5 minutes' })
      .default(30_000)
      .describe(
        'how long a consumer that stopped heartbeating keeps its partitions before another replica takes them over (the suite uses 10 s)',
      ),
    /**
     * How many partitions a topic is created with: the most consumers of one group that share its work (one user's
     * events stay on one partition, in order). An existing topic keeps its own; growing one is an operator's step
     * (docs/operations.md), since it moves keys to other partitions.
     */
    KAFKA_TOPIC_PARTITIONS: z.coerce
      .number()
      .int()
      .min(1)
      .max(100)
      .default(3)
      .describe(
        'partitions a topic is created with: how many replicas of a consumer share its work (one user\'s events stay on one partition, in order); an existing topic keeps its own (docs/operations.md, "Scaling")',
      ),
    /** Partitions one consumer handles at once (a consumer that says otherwise keeps its own, e.g. the mailer's 3). */
    KAFKA_CONSUMER_CONCURRENCY: z.coerce
      .number()
      .int()
      .min(1)
      .max(100)
      .default(1)
      .describe("partitions one consumer handles at once (the mailer's delivery consumer keeps its own 3)"),
    /** How many unpublished events one entity may hold; a write that would append more is refused (429). */
    OUTBOX_MAX_PENDING: z.coerce
      .number()
      .int()
      .min(1)
      .max(10_000)
      .default(defaultOutboxBacklog)
      .describe(
        'unpublished events one entity (a user, a subscription) may hold; a write that would append more is refused with 429',
      ),
  };
}

/**
 * The user service decides roles: the admin is whoever signs in with this address, verified (compared
 * case-insensitively). Unset: nobody is an admin.
 */
export const adminConfigShape = {
  ADMIN_EMAIL: z
    .email({ message: 'must be an e-mail address' })
    .transform((value) => value.toLowerCase())
    .optional()
    .meta({
      description: "the admin's address, compared case-insensitively; looked up per request",
      unset: 'unset (no admin)',
    }),
};

/** Deleting an account (the owner's or the admin's) needs a sign-in at most this recent (access.ts). */
export const reauthConfigShape = {
  REAUTH_MAX_AGE_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 60 * 1000)
    .describe(
      "deleting an account (one's own or the admin's) needs a sign-in at most this recent; older: 401 `REAUTH_REQUIRED`",
    ),
};

/** Services that serve paid operations confirm a denial with billing (entitlements.ts). */
export const billingServiceConfigShape = {
  BILLING_SERVICE_URL: z
    .url()
    .default(localGraphqlUrl(catalogEntry('billing').port))
    .describe(
      "the billing subgraph: where a denied paid operation is confirmed (grants come from the local entitlement copy), and where compliance's account deletion closes the payments before it answers",
    ),
  /** How often the copy of billing's access decisions is compared with billing's record (entitlements.ts). */
  ENTITLEMENT_RECONCILE_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(24 * 60 * 60_000)
    .default(60 * 60_000)
    .describe(
      "how often the entitlement copy (quote's; the user service's copy of billing's status for the admin list) is compared with billing's record and repaired",
    ),
};

/** Services that do not own roles ask the user service for the caller's (access-sources.ts). */
export const userServiceConfigShape = {
  USER_SERVICE_URL: z
    .url()
    .default(localGraphqlUrl(catalogEntry('user').port))
    .describe(
      "the user subgraph: where the service asks for a caller's role (only when a non-owner reads data), and where compliance's deletions close the account",
    ),
};

type Env = Record<string, string | undefined>;

/**
 * Reads `NAME`, or the file named by `NAME_FILE` (how Kubernetes and compose mount secrets). A URL read from a file
 * loses the line end an editor leaves after it; other secrets are taken byte for byte.
 */
function withFileSecrets(env: Env, names: string[]): Env {
  const resolved: Env = { ...env };
  for (const name of names) {
    const file = env[`${name}_FILE`];
    if (!resolved[name] && file) {
      try {
        const content = readFileSync(file, 'utf8');
        resolved[name] = name.endsWith('_URL') ? content.trim() : content;
      } catch (error) {
        throw new ConfigError(`${name}_FILE: cannot read ${file}: ${(error as Error).message}`);
      }
    }
  }
  return resolved;
}

/** Secrets that may come from a file instead of the environment. */
export const fileSecretNames = [
  // A database URL carries its user's password.
  'MONGO_URL',
  'JWT_PUBLIC_KEY',
  'JWT_PRIVATE_KEY',
  'SMTP_PASS',
  'SUBGRAPH_SECRET',
  'SERVICE_SECRET',
  'GOOGLE_CLIENT_SECRET',
  'OIDC_CLIENT_SECRET',
  'ERASURE_HMAC_SECRET',
  'PERSON_MASTER_KEYS',
  'KAFKA_SASL_PASSWORD',
];

/**
 * Parses the environment against a shape, failing with one message that lists every bad variable.
 * Empty strings count as unset, so `FOO=` falls back to the default.
 */
export function loadConfig<Shape extends z.ZodRawShape>(
  shape: Shape,
  env: Env = process.env,
): z.infer<z.ZodObject<Shape>> {
  const present = Object.fromEntries(
    Object.entries(withFileSecrets(env, fileSecretNames)).filter(([, value]) => value !== undefined && value !== ''),
  );
  const result = z.object(shape).safeParse(present);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return result.data;
}

export type BaseConfig = z.infer<z.ZodObject<ReturnType<typeof baseConfigShape>>>;
