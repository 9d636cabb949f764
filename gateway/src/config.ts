import { booleanFromEnv, loadConfig } from '@haven/platform';
import { z } from 'zod';

const serviceUrl = (port: number) => z.url().default(`http://127.0.0.1:${port}/graphql`);

export const gatewayConfigShape = {
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  USER_SERVICE_URL: serviceUrl(4001),
  QUOTE_SERVICE_URL: serviceUrl(4002),
  BILLING_SERVICE_URL: serviceUrl(4003),
  NOTIFICATION_SERVICE_URL: serviceUrl(4004),
  COMPLIANCE_SERVICE_URL: serviceUrl(4005),
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
