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
  RATE_LIMIT_AUTH_MAX: positive(10),
  RATE_LIMIT_AUTH_WINDOW_MS: positive(60_000),
  RATE_LIMIT_MAIL_MAX: positive(5),
  RATE_LIMIT_MAIL_WINDOW_MS: positive(60 * 60_000),
  RATE_LIMIT_COSTLY_MAX: positive(30),
  RATE_LIMIT_COSTLY_WINDOW_MS: positive(60 * 60_000),
  RATE_LIMIT_ORDINARY_MAX: positive(60),
  RATE_LIMIT_ORDINARY_WINDOW_MS: positive(60_000),
  /** The data export, per account, counted by the gateway (its routes read every service). */
  RATE_LIMIT_EXPORT_MAX: positive(1),
  RATE_LIMIT_EXPORT_WINDOW_MS: positive(5 * 60_000),
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

/** How many unpublished events one entity may hold by default (OUTBOX_MAX_PENDING). */
export const defaultOutboxBacklog = 50;

/** Settings every service reads; see README "Configuration". The default port is the catalog's. */
export function baseConfigShape(service: ServiceName, defaultPort: number = catalogEntry(service).port) {
  return {
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    LOG_LEVEL: z.enum(logLevels).default('info'),
    PORT: z.coerce.number().int().min(0).max(65535).default(defaultPort),
    MONGO_URL: z.string().startsWith('mongodb').default('mongodb://127.0.0.1:27017'),
    MONGO_DB: z.string().min(1).default(`haven_${service}`),
    KAFKA_BROKERS: brokerList.default(['127.0.0.1:9092']),
    KAFKA_CLIENT_ID: z.string().min(1).default(`haven-${service}`),
    /**
     * The service's Kafka user (SASL SCRAM-SHA-512), as in Kubernetes, where the broker allows it only its own
     * topic and groups (kafka-access.ts). Unset: no sign-in (development, tests).
     */
    KAFKA_SASL_USERNAME: z.string().min(1).optional(),
    KAFKA_SASL_PASSWORD: z.string().min(1).optional(),
    JWT_PUBLIC_KEY: z.string().includes('PUBLIC KEY', { message: 'must be a PEM public key' }),
    /** Loopback unless set: in development nothing but this machine reaches a subgraph. */
    HOST: z.string().min(1).optional(),
    /** The gateway's shared secret; requests without it are refused (required in production). */
    SUBGRAPH_SECRET: subgraphSecret,
    /**
     * Held by every service and never by the gateway: sent with a call to another subgraph (askSubgraph), and
     * required for the operations marked `@internal` (required in production).
     */
    SERVICE_SECRET: serviceSecret,
    ...rateLimitConfigShape,
    /**
     * The key of the erasure records (keyed hashes of erased users' ids, erasure.ts). Unset: derived from
     * SUBGRAPH_SECRET (then rotating that secret also renames the records; set this one in production).
     */
    ERASURE_HMAC_SECRET: z.string().trim().min(16, { message: 'must be at least 16 characters' }).optional(),
    /** How long Kafka keeps Haven's events (topics and dead letters), set on every topic by ensureTopics. */
    KAFKA_RETENTION_MS: z.coerce
      .number()
      .int()
      .min(60 * 60 * 1000, { message: 'must be at least an hour' })
      // A record may outlive retention by its segment's day (kafka.ts): the two stay within the 14 days.
      .max(13 * 24 * 60 * 60 * 1000, { message: 'must stay a day under the consumers’ 14 days of processed ids' })
      .default(7 * 24 * 60 * 60 * 1000),
    /**
     * How long a consumer that stops heartbeating stays in its group: a crashed replica's partitions wait this
     * long before another takes them (Kafka's group.min.session.timeout.ms is 6 s).
     */
    KAFKA_SESSION_TIMEOUT_MS: z.coerce
      .number()
      .int()
      .min(6_000, { message: 'must be at least 6 seconds (the broker’s minimum)' })
      .max(5 * 60_000, { message: 'must be at most 5 minutes' })
      .default(30_000),
    /**
     * How many partitions a topic is created with: the most consumers of one group that share its work (one user's
     * events stay on one partition, in order). An existing topic keeps its own; growing one is an operator's step
     * (docs/operations.md), since it moves keys to other partitions.
     */
    KAFKA_TOPIC_PARTITIONS: z.coerce.number().int().min(1).max(100).default(3),
    /** Partitions one consumer handles at once (a consumer that says otherwise keeps its own, e.g. the mailer's 3). */
    KAFKA_CONSUMER_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(1),
    /** How many unpublished events one entity may hold; a write that would append more is refused (429). */
    OUTBOX_MAX_PENDING: z.coerce.number().int().min(1).max(10_000).default(defaultOutboxBacklog),
  };
}

/**
 * The user service decides roles; for now an admin is whoever signs in with this address (compared
 * case-insensitively). Unset: nobody is an admin. The identity issue adds stored roles beside it.
 */
export const adminConfigShape = {
  ADMIN_EMAIL: z
    .email({ message: 'must be an e-mail address' })
    .transform((value) => value.toLowerCase())
    .optional(),
};

/** Deleting an account (the owner's or the admin's) needs a sign-in at most this recent (access.ts). */
export const reauthConfigShape = {
  REAUTH_MAX_AGE_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 60 * 1000),
};

/** Services that serve paid operations confirm a denial with billing (entitlements.ts). */
export const billingServiceConfigShape = {
  BILLING_SERVICE_URL: z.url().default(localGraphqlUrl(catalogEntry('billing').port)),
  /** How often the copy of billing's access decisions is compared with billing's record (entitlements.ts). */
  ENTITLEMENT_RECONCILE_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(24 * 60 * 60_000)
    .default(60 * 60_000),
};

/** Services that do not own roles ask the user service for the caller's (access-sources.ts). */
export const userServiceConfigShape = {
  USER_SERVICE_URL: z.url().default(localGraphqlUrl(catalogEntry('user').port)),
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
const fileSecretNames = [
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
