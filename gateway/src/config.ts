import {
  booleanFromEnv,
  gatewayEntry,
  hostUnset,
  loadConfig,
  requireSubgraphSecretInProduction,
  localGraphqlUrl,
  logLevelSetting,
  nodeEnvSetting,
  portSetting,
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
  serviceCatalog.map(({ name, port }) => [serviceUrlVariable(name), serviceUrl(port).describe(`${name} subgraph`)]),
) as Record<ServiceUrlVariable, ReturnType<typeof serviceUrl>>;

export const gatewayConfigShape = {
  NODE_ENV: nodeEnvSetting.describe(
    '`development`, `test` or `production`; `production` also makes the session cookie `Secure` unless `COOKIE_SECURE` says otherwise',
  ),
  LOG_LEVEL: logLevelSetting,
  PORT: portSetting(gatewayEntry.port).describe(
    'HTTP port (web app, `/graphql`, `/api/*`, `/hooks/<service>/*`, `/healthz`, `/readyz`)',
  ),
  ...subgraphUrlShape,
  JWT_PUBLIC_KEY: z
    .string()
    .includes('PUBLIC KEY', { message: 'must be a PEM public key' })
    .describe('PEM ES256 public key that verifies the session cookie'),
  APP_URL: z
    .url()
    .default('http://localhost:4000')
    .describe("the web app's public origin: the allowed origin of CSRF checks"),
  COOKIE_SECURE: booleanFromEnv.optional().meta({
    description:
      'mark the session, consent and sign-in cookies `Secure` (https only) and name them `__Host-haven_*`; over plain http keep it `false` (browsers refuse `__Host-` cookies without Secure)',
    unset: '`true` when `NODE_ENV=production`, else `false`',
  }),
  ...rateLimitConfigShape,
  WEB_DIST_DIR: z
    .string()
    .default('web/dist')
    .describe('the built web app the gateway serves (the image sets `/app/web/dist`)'),
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
    )
    .describe(
      "comma-separated addresses, CIDR ranges or Express's names (`loopback`, `uniquelocal`) of the proxies allowed to name the client in `X-Forwarded-For`; with none, the client is the TCP peer (Kubernetes sets `loopback, uniquelocal` for the ingress controller)",
    ),
  /** Rate-limit counters live here, so every gateway replica sees the same numbers. */
  MONGO_URL: z
    .string()
    .startsWith('mongodb')
    .default('mongodb://127.0.0.1:27017')
    .describe('where the rate-limit counters live (shared by every gateway replica)'),
  MONGO_DB: z.string().min(1).default('haven_gateway').describe("the gateway's own database"),
  /** Sent to every subgraph, which refuses requests without it (see docs/security.md). */
  SUBGRAPH_SECRET: subgraphSecret.meta({
    description: 'sent to every subgraph in `x-haven-subgraph-secret`',
    unset: '— (required in production)',
  }),
  /** How long one subgraph call may take before the route answers 503. */
  SUBGRAPH_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(10_000)
    .describe('the longest one subgraph call may take; then the route answers 503'),
  HOST: z.string().min(1).optional().meta({ description: 'the address the gateway listens on', unset: hostUnset }),
  /**
   * Where the gateway serves its own /metrics: a port of its own, never the public one (PORT faces the
   * internet through the ingress). Unset: no metrics server. 0 picks a free port (tests).
   */
  METRICS_PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65535)
    .optional()
    .describe(
      'the port of the gateway\'s own Prometheus `/metrics`, never its public port; unset: no metrics server (docs/operations.md, "Metrics and alerts")',
    ),
  /**
   * How long the gateway trusts the user service's answer that a session is live (or revoked): a session
   * ended through another gateway replica is refused everywhere within this bound.
   */
  SESSION_CHECK_TTL_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(60_000)
    .default(5_000)
    .describe(
      "how long the gateway trusts the user service's answer that a session is live; a session ended through another gateway replica is refused everywhere within this bound (through this one, at once)",
    ),
};

export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;

export function loadGatewayConfig(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(gatewayConfigShape, env);
  requireSubgraphSecretInProduction(config);
  return { ...config, COOKIE_SECURE: config.COOKIE_SECURE ?? config.NODE_ENV === 'production' };
}
