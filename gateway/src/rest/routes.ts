/**
 * The spec's /api contract, each route one GraphQL operation against the
 * supergraph. Replies keep the spec's field names (including its snake_case ones).
 */

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

type Json = Record<string, unknown>;

export interface RestRoute {
  method: HttpMethod;
  path: string;
  operation: string;
  /** Builds the operation's variables from the JSON body (an object, already checked). */
  variables?: (body: Json) => Json;
  /** Shapes the reply from the operation's data; null means "not signed in" (401). */
  reply: (data: Json) => Json | null;
  status?: number;
}

const userFields = 'id email firstName lastName profileImageUrl emailVerified createdAt';

const pick = (body: Json, keys: string[]): Json =>
  Object.fromEntries(keys.filter((key) => body[key] !== undefined).map((key) => [key, body[key]]));

const signedIn = (data: Json): Json | null => (data.me as Json | null) ?? null;

export const restRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/api/auth/register',
    operation: `mutation Register($input: RegisterInput!) { register(input: $input) { user { ${userFields} } } }`,
    variables: (body) => ({ input: pick(body, ['email', 'password', 'firstName', 'lastName']) }),
    reply: (data) => data.register as Json,
    status: 201,
  },
  {
    method: 'POST',
    path: '/api/auth/login',
    operation: `mutation Login($input: LoginInput!) { login(input: $input) { user { ${userFields} } } }`,
    variables: (body) => ({ input: pick(body, ['email', 'password']) }),
    reply: (data) => data.login as Json,
  },
  {
    method: 'GET',
    path: '/api/user',
    operation: `query CurrentUser { me { ${userFields} } }`,
    reply: signedIn,
  },
  {
    method: 'GET',
    path: '/api/user/stats',
    operation: 'query UserStats { me { stats { totalQuotes totalEntries favoriteQuotes } } }',
    reply: (data) => (signedIn(data)?.stats as Json | undefined) ?? null,
  },
  {
    method: 'GET',
    path: '/api/subscription-status',
    operation: `query SubscriptionStatus { me { subscriptionStatus {
      planType status isTrialing needsSetup hasActiveSubscription trialEnd currentPeriodEnd cancelAtPeriodEnd } } }`,
    reply: (data) => {
      const status = signedIn(data)?.subscriptionStatus as Json | undefined;
      if (!status) return null;
      const { currentPeriodEnd, cancelAtPeriodEnd, ...rest } = status;
      return { ...rest, current_period_end: currentPeriodEnd, cancel_at_period_end: cancelAtPeriodEnd };
    },
  },
  {
    method: 'GET',
    path: '/api/gdpr/config',
    operation: 'query GdprConfig { gdprConfig { gdprEnabled cookieBannerEnabled enhancedConsentEnabled } }',
    reply: (data) => data.gdprConfig as Json,
  },
];

export const logoutOperation = 'mutation Logout { logout }';
