/**
 * The OpenID Connect client for Google and the hosted platform (openid-client): discovery, the
 * authorisation URL (code flow, PKCE S256, state, nonce) and the code exchange with the ID token's checks.
 * The only I/O of federated sign-in besides the database; the rules are in domain/federated-sign-in.ts.
 */
import type { FederatedProvider } from '../domain/federated-sign-in';

/** openid-client is an ES module: imported once, on first use (this service is CommonJS; jest compiles it). */
const importClient = () => import('openid-client');
type OpenIdClient = Awaited<ReturnType<typeof importClient>>;
type Configuration = InstanceType<OpenIdClient['Configuration']>;
let openIdClient: Promise<OpenIdClient> | null = null;
const loadClient = () => (openIdClient ??= importClient());

export interface ProviderSettings {
  /** How people know it ("Google", the hosted platform's name). */
  name: string;
  issuer: string;
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** Where the provider sends the browser back: the gateway's callback route on the public origin. */
  redirectUri: string;
}

/** The provider could not be reached (down, slow, a network fault): nothing was decided. */
export class ProviderUnreachableError extends Error {}

/** The provider's answer did not pass the checks (code, PKCE, state, nonce, issuer, signature, expiry). */
export class ProviderRejectedError extends Error {}

export interface FlowSecrets {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface OidcProviders {
  /** A client id and secret are set: its button starts a real sign-in. */
  configured(provider: FederatedProvider): boolean;
  name(provider: FederatedProvider): string;
  /** Fresh state, nonce and PKCE verifier for one flow. */
  newFlow(): Promise<FlowSecrets>;
  authorizationUrl(provider: FederatedProvider, flow: FlowSecrets): Promise<string>;
  /** Exchanges the callback's code and returns the person's claims (ID token, then userinfo for the rest). */
  exchange(provider: FederatedProvider, callbackQuery: string, flow: FlowSecrets): Promise<Record<string, unknown>>;
}

/** Plain http is accepted only for an issuer on this machine (a test or development provider). */
function isLoopback(url: URL): boolean {
  return ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

const requestTimeoutSeconds = 10;

/** Whether an error from openid-client means the provider was not reached (vs. it answered and we refused). */
function unreachable(error: unknown): boolean {
  for (let cause = error as { name?: string; message?: string; code?: string; cause?: unknown } | undefined; cause;) {
    if (cause.code === 'OAUTH_TIMEOUT' || cause.code === 'OAUTH_ABORT') return true;
    if (cause.name === 'TimeoutError' || cause.name === 'AbortError') return true;
    if (cause.name === 'TypeError' && cause.message === 'fetch failed') return true;
    cause = cause.cause as typeof cause;
  }
  return false;
}

export function oidcProviders(settings: Record<FederatedProvider, ProviderSettings>): OidcProviders {
  // Discovery once per provider; a failure is forgotten, so the next sign-in tries again.
  const configurations = new Map<FederatedProvider, Promise<Configuration>>();
  const configurationOf = (provider: FederatedProvider): Promise<Configuration> => {
    let pending = configurations.get(provider);
    if (!pending) {
      const { issuer, clientId, clientSecret } = settings[provider];
      const issuerUrl = new URL(issuer);
      pending = loadClient().then((client) =>
        client.discovery(issuerUrl, clientId!, clientSecret, undefined, {
          timeout: requestTimeoutSeconds,
          execute: isLoopback(issuerUrl) ? [client.allowInsecureRequests] : [],
        }),
      );
      pending.catch(() => configurations.delete(provider));
      configurations.set(provider, pending);
    }
    return pending;
  };

  const reached = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (unreachable(error)) throw new ProviderUnreachableError('provider unreachable', { cause: error });
      throw new ProviderRejectedError('provider answer refused', { cause: error });
    }
  };

  return {
    configured: (provider) => Boolean(settings[provider].clientId && settings[provider].clientSecret),
    name: (provider) => settings[provider].name,
    newFlow: async () => {
      const client = await loadClient();
      return {
        state: client.randomState(),
        nonce: client.randomNonce(),
        codeVerifier: client.randomPKCECodeVerifier(),
      };
    },
    authorizationUrl: (provider, flow) =>
      reached(async () => {
        const client = await loadClient();
        const config = await configurationOf(provider);
        return client
          .buildAuthorizationUrl(config, {
            redirect_uri: settings[provider].redirectUri,
            scope: 'openid email profile',
            code_challenge: await client.calculatePKCECodeChallenge(flow.codeVerifier),
            code_challenge_method: 'S256',
            state: flow.state,
            nonce: flow.nonce,
          })
          .toString();
      }),
    exchange: (provider, callbackQuery, flow) =>
      reached(async () => {
        const client = await loadClient();
        const config = await configurationOf(provider);
        const callbackUrl = new URL(settings[provider].redirectUri);
        callbackUrl.search = callbackQuery;
        const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: flow.codeVerifier,
          expectedState: flow.state,
          expectedNonce: flow.nonce,
          idTokenExpected: true,
        });
        const idClaims = tokens.claims();
        if (!idClaims) throw new Error('no ID token');
        const claims: Record<string, unknown> = { ...idClaims };
        // Some providers (and OpenID Connect's own default) keep the e-mail claims for userinfo.
        if (claims.email === undefined && config.serverMetadata().userinfo_endpoint) {
          const userInfo = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
          for (const [name, value] of Object.entries(userInfo)) claims[name] ??= value;
        }
        return claims;
      }),
  };
}
