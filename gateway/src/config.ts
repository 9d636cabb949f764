import {
  booleanFromEnv,
  gatewayEntry,
  loadConfig,
  localGraphqlUrl,
  serviceCatalog,
  serviceUrlVariable,
  type ServiceUrlVariable,
} from '@haven/platform';
import { z } from 'zod';

const serviceUrl = (port: number) => z.url().default(localGraphqlUrl(port));

/** USER_SERVICE_URL, QUOTE_SERVICE_URL, …: one per catalog service, defaulting to its development port. */
const subgraphUrlShape = Object.fromEntries(
  serviceCatalog.map(({ name, port }) => [serviceUrlVariable(name), serviceUrl(port)]),
) as Record<ServiceUrlVariable, ReturnType<typeof serviceUrl>>;

export const gatewayConfigShape = {
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PORT: z.coerce.number().int().min(0).max(65535).default(gatewayEntry.port),
  ...subgraphUrlShape,
  JWT_PUBLIC_KEY: z.string().includes('PUBLIC KEY', { message: 'must be a PEM public key' }),
  APP_URL: z.url().default('http://localhost:4000'),
  COOKIE_SECURE: booleanFromEnv.optional(),
  RATE_LIMIT_AUTH_MAX: z.coerce.number().int().positive().default(10),
  RATE_LIMIT_AUTH_WINDOW_MS: z.coerce.number().int().positive().default(60_000),
  WEB_DIST_DIR: z.string().default('web/dist'),
  // Express "trust proxy": which hops may set X-Forwarded-For (the client IP that rate limits use).
  TRUST_PROXY: z
    .string()
    .default('loopback')
    .transform((value) => (/^\d+$/.test(value) ? Number(value) : value)),
};

export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;

export function loadGatewayConfig(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(gatewayConfigShape, env);
  return { ...config, COOKIE_SECURE: config.COOKIE_SECURE ?? config.NODE_ENV === 'production' };
}
