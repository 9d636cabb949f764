import {
  booleanFromEnv,
  gatewayEntry,
  loadConfig,
  requireSubgraphSecretInProduction,
  localGraphqlUrl,
  rateLimitConfigShape,
  serviceCatalog,
  serviceUrlVariable,
  subgraphSecret,
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
  ...rateLimitConfigShape,
  WEB_DIST_DIR: z.string().default('web/dist'),
  /**
   * The proxies (addresses or CIDR ranges, comma-separated) allowed to say who the client is through
   * X-Forwarded-For; empty means none, so the client address is the TCP peer's and the header buys nothing.
   */
  TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    ),
  /** Rate-limit counters live here, so every gateway replica sees the same numbers. */
  MONGO_URL: z.string().startsWith('mongodb').default('mongodb://127.0.0.1:27017'),
  MONGO_DB: z.string().min(1).default('haven_gateway'),
  /** Sent to every subgraph, which refuses requests without it (see docs/security.md). */
  SUBGRAPH_SECRET: subgraphSecret,
  /** How long one subgraph call may take before the route answers 503. */
  SUBGRAPH_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  HOST: z.string().min(1).optional(),
  /**
   * Where the gateway serves its own /metrics: a port of its own, never the public one (PORT faces the
   * internet through the ingress). Unset: no metrics server. 0 picks a free port (tests).
   */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /**
   * How long the gateway trusts the user service's answer that a session is live (or revoked): a session
   * ended through another gateway replica is refused everywhere within this bound.
   */
  SESSION_CHECK_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
};

export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;

export function loadGatewayConfig(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(gatewayConfigShape, env);
  requireSubgraphSecretInProduction(config);
  return { ...config, COOKIE_SECURE: config.COOKIE_SECURE ?? config.NODE_ENV === 'production' };
}
