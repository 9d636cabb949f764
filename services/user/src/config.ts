import { adminConfigShape, baseConfigShape, billingServiceConfigShape, personKeysConfigShape } from '@haven/platform';
import { z } from 'zod';

/** The user service's environment, described in docs/configuration.md (`make docs`). */
export const userConfigShape = {
  ...baseConfigShape('user'),
  ...adminConfigShape,
  ...billingServiceConfigShape,
  ...personKeysConfigShape,
  JWT_PRIVATE_KEY: z
    .string()
    .includes('PRIVATE KEY', { message: 'must be a PEM private key' })
    .describe('PEM ES256 private key that signs session tokens (only this service has it)'),
  SESSION_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(7 * 24 * 60 * 60)
    .describe('session lifetime'),
  /** The public origin people open: the providers send the browser back to its callback routes. */
  APP_URL: z
    .url()
    .default('http://localhost:4000')
    .describe(
      "the public origin: the providers' redirect URIs are `APP_URL/api/auth/google/callback` (Google) and `APP_URL/api/callback` (hosted platform)",
    ),
  GOOGLE_ISSUER_URL: z
    .url()
    .default('https://accounts.google.com')
    .describe("Google's OpenID Connect issuer (discovery at `/.well-known/openid-configuration`)"),
  GOOGLE_CLIENT_ID: z.string().trim().optional().meta({
    description: 'the OAuth client Google issued for Haven',
    unset: "unset (Google's button says it is not available)",
  }),
  GOOGLE_CLIENT_SECRET: z.string().trim().optional().describe('the secret of `GOOGLE_CLIENT_ID`'),
  /** The hosted platform: any OpenID Connect issuer. Unset: its button says it is not available. */
  OIDC_ISSUER_URL: z.url().optional().meta({
    description: 'the hosted platform: any OpenID Connect issuer',
    unset: "unset (the hosted platform's button says it is not available)",
  }),
  OIDC_CLIENT_ID: z.string().trim().optional().describe('the client the hosted platform issued for Haven'),
  OIDC_CLIENT_SECRET: z.string().trim().optional().describe('the secret of `OIDC_CLIENT_ID`'),
  /** How e-mails name the hosted platform; keep it equal to hostedSignInName in web/src/brand.ts. */
  OIDC_PROVIDER_NAME: z
    .string()
    .trim()
    .min(1)
    .default('Single Sign-On')
    .describe('how e-mails name the hosted platform; keep it equal to `hostedSignInName` in `web/src/brand.ts`'),
};
