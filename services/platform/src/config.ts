import { readFileSync } from 'node:fs';
import { z } from 'zod';

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

/** Settings every service reads; see README "Configuration". */
export function baseConfigShape(service: string, defaultPort: number) {
  return {
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    LOG_LEVEL: z.enum(logLevels).default('info'),
    PORT: z.coerce.number().int().min(0).max(65535).default(defaultPort),
    MONGO_URL: z.string().startsWith('mongodb').default('mongodb://127.0.0.1:27017'),
    MONGO_DB: z.string().min(1).default(`haven_${service}`),
    KAFKA_BROKERS: brokerList.default(['127.0.0.1:9092']),
    KAFKA_CLIENT_ID: z.string().min(1).default(`haven-${service}`),
    JWT_PUBLIC_KEY: z.string().includes('PUBLIC KEY', { message: 'must be a PEM public key' }),
  };
}

type Env = Record<string, string | undefined>;

/**
 * Reads `NAME`, or the file named by `NAME_FILE` (how Kubernetes and compose mount secrets).
 */
function withFileSecrets(env: Env, names: string[]): Env {
  const resolved: Env = { ...env };
  for (const name of names) {
    const file = env[`${name}_FILE`];
    if (!resolved[name] && file) {
      try {
        resolved[name] = readFileSync(file, 'utf8');
      } catch (error) {
        throw new ConfigError(`${name}_FILE: cannot read ${file}: ${(error as Error).message}`);
      }
    }
  }
  return resolved;
}

/** Secrets that may come from a file instead of the environment. */
const fileSecretNames = ['JWT_PUBLIC_KEY', 'JWT_PRIVATE_KEY', 'SMTP_PASS', 'SUBGRAPH_SECRET'];

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
