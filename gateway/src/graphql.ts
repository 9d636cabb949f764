import { ApolloGateway, RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { Fetcher } from '@apollo/utils.fetcher';
import {
  withTraceHeaders,
  clientAddressHeader,
  correlationHeader,
  LimitedApolloServer,
  maskError,
  declaredRateLimits,
  rateLimitsOf,
  rateLimitPlugin,
  serviceCatalog,
  serviceUrlVariable,
  sessionHeader,
  sessionsEndedHeader,
  sessionsRecheckHeader,
  signInBindingHeader,
  subgraphSecretHeader,
  visitorCookieHeader,
  visitorHeader,
  type Logger,
  unexpectedErrorLog,
  type RateLimitOptions,
  type RateLimitStore,
} from '@haven/platform';
import { GraphQLError, parse } from 'graphql';
import type { GatewayConfig } from './config';
import { sessionCookie, visitorCookie } from './session';
import { readSupergraph, type SubgraphName } from './supergraph';

export interface GatewayContext extends BaseContext {
  /** The verified session token from the cookie, forwarded to subgraphs. */
  sessionToken: string | null;
  correlationId: string;
  clientIp: string;
  log: Logger;
  /** Set when a subgraph asked to start (token) or end (null) the browser session. */
  sessionChange?: { token: string | null };
  /** Called when the session this request came with has ended (logout): the gateway refuses it from then on. */
  onSessionEnded?: () => void;
  /** Users whose every session a subgraph ended (an account closed) during this request. */
  endedUserSessions?: string[];
  /** Called for each of them: the gateway refuses their sessions from then on. */
  onUserSessionsEnded?: (userId: string) => void;
  /** Users some of whose sessions the user service ended during this request (a verification, a reset). */
  recheckedUserSessions?: string[];
  /** Called for each of them: the gateway asks the user service again about their tokens. */
  onUserSessionsChanged?: (userId: string) => void;
  /** The visitor id of the consent cookie (session.ts), forwarded to the subgraphs; null without one. */
  visitorId?: string | null;
  /** Set when a subgraph asked to set (id) or clear (null) the consent cookie. */
  visitorCookieChange?: { visitorId: string | null };
  /** The federated sign-in binding of this browser (rest/sign-in.ts), forwarded to the subgraphs; null without one. */
  signInBinding?: string | null;
}

/** Forwards the session and correlation id; turns "cannot reach the subgraph" into a 503. */
class SubgraphDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  constructor(
    private readonly subgraphName: string,
    url: string,
    private readonly secret: string | undefined,
    timeoutMs: number,
  ) {
    super({
      url,
      // A frozen subgraph must not hold the route (and its sockets) for minutes: every call has a deadline.
      fetcher: ((input: string, init?: RequestInit) =>
        fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) })) as unknown as Fetcher,
    });
  }

  override willSendRequest({ request, context }: GraphQLDataSourceProcessOptions<GatewayContext>): void {
    if (this.secret) request.http?.headers.set(subgraphSecretHeader, this.secret);
    // The subgraph's span joins the request's trace.
    for (const [name, value] of Object.entries(withTraceHeaders({}))) request.http?.headers.set(name, value);
    if (!('sessionToken' in context)) return; // gateway-internal requests carry no user context
    if (context.sessionToken) request.http?.headers.set('authorization', `Bearer ${context.sessionToken}`);
    request.http?.headers.set(correlationHeader, context.correlationId);
    request.http?.headers.set(clientAddressHeader, context.clientIp);
    if (context.visitorId) request.http?.headers.set(visitorHeader, context.visitorId);
    if (context.signInBinding) request.http?.headers.set(signInBindingHeader, context.signInBinding);
  }

  override didReceiveResponse({
    response,
    context,
  }: Parameters<NonNullable<RemoteGraphQLDataSource<GatewayContext>['didReceiveResponse']>>[0]) {
    const change = response.http?.headers.get(sessionHeader);
    if (change !== null && change !== undefined && 'sessionToken' in context) {
      context.sessionChange = { token: change === '' ? null : change };
    }
    const ended = response.http?.headers.get(sessionsEndedHeader);
    if (ended && 'sessionToken' in context) {
      context.endedUserSessions = [...(context.endedUserSessions ?? []), ...ended.split(',').filter(Boolean)];
    }
    const recheck = response.http?.headers.get(sessionsRecheckHeader);
    if (recheck && 'sessionToken' in context) {
      context.recheckedUserSessions = [...(context.recheckedUserSessions ?? []), ...recheck.split(',').filter(Boolean)];
    }
    const visitor = response.http?.headers.get(visitorCookieHeader);
    if (visitor !== null && visitor !== undefined && 'sessionToken' in context) {
      context.visitorCookieChange = { visitorId: visitor === '' ? null : visitor };
    }
    return response;
  }

  override didEncounterError(error: Error, _request: unknown, fetchResponse?: unknown): void {
    if (fetchResponse === undefined) {
      const timedOut = error.name === 'TimeoutError' || error.name === 'AbortError';
      const message = timedOut
        ? `The ${this.subgraphName} service did not answer in time. Please try again shortly.`
        : `The ${this.subgraphName} service is unavailable. Please try again shortly.`;
      throw new GraphQLError(message, {
        extensions: { code: 'SERVICE_UNAVAILABLE', http: { status: 503 } },
        originalError: error,
      });
    }
    // A subgraph that answered 503 with its own reason (its database is down) is passed on as such.
    const reason = (error as GraphQLError).extensions?.response as
      { status?: number; body?: { errors?: Array<{ message?: string; extensions?: { code?: string } }> } } | undefined;
    const first = reason?.body?.errors?.[0];
    if (reason?.status === 503 && first?.extensions?.code === 'SERVICE_UNAVAILABLE' && first.message) {
      throw new GraphQLError(first.message, {
        extensions: { code: 'SERVICE_UNAVAILABLE', http: { status: 503 } },
        originalError: error,
      });
    }
    // A subgraph's own rate limit (per account, per recipient) is passed on as a 429 with its wait.
    const retryAfter = (first?.extensions as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
    if (reason?.status === 429 && first?.extensions?.code === 'TOO_MANY_REQUESTS' && first.message) {
      const seconds = typeof retryAfter === 'number' ? retryAfter : 1;
      throw new GraphQLError(first.message, {
        extensions: {
          code: 'TOO_MANY_REQUESTS',
          retryAfterSeconds: seconds,
          http: { status: 429, headers: new Map([['retry-after', String(seconds)]]) },
        },
        originalError: error,
      });
    }
    throw error;
  }
}

/**
 * Turns a subgraph's request to start or end the session, or to set or clear the consent cookie, into the
 * browser's cookie. No operation does both (sign-in and consent are separate fields); were one to, the session's
 * cookie is the one sent.
 */
function sessionCookiePlugin(secureCookie: boolean): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ contextValue, response }) {
          for (const userId of contextValue.endedUserSessions ?? []) contextValue.onUserSessionsEnded?.(userId);
          for (const userId of contextValue.recheckedUserSessions ?? []) contextValue.onUserSessionsChanged?.(userId);
          if (contextValue.sessionChange) {
            if (contextValue.sessionChange.token === null) contextValue.onSessionEnded?.();
            response.http.headers.set('set-cookie', sessionCookie(contextValue.sessionChange.token, secureCookie));
          } else if (contextValue.visitorCookieChange) {
            response.http.headers.set(
              'set-cookie',
              visitorCookie(contextValue.visitorCookieChange.visitorId, secureCookie),
            );
          }
        },
      };
    },
  };
}

/** Each subgraph's /graphql URL, from the configuration. */
export function serviceUrlsOf(config: GatewayConfig): Record<SubgraphName, string> {
  return Object.fromEntries(serviceCatalog.map(({ name }) => [name, config[serviceUrlVariable(name)]])) as Record<
    SubgraphName,
    string
  >;
}

export function createGatewayServer(
  config: GatewayConfig,
  log: Logger,
  rateLimitStore: RateLimitStore,
  plugins: ApolloServerPlugin<GatewayContext>[] = [],
  rateLimitRefusals?: RateLimitOptions['refusals'],
) {
  const supergraphSdl = readSupergraph();
  const urls = serviceUrlsOf(config);
  const gateway = new ApolloGateway({
    supergraphSdl,
    buildService: ({ name, url }) =>
      new SubgraphDataSource(
        name,
        urls[name as SubgraphName] ?? url!,
        config.SUBGRAPH_SECRET,
        config.SUBGRAPH_TIMEOUT_MS,
      ),
    logger: log,
  });
  const production = config.NODE_ENV === 'production';
  return new LimitedApolloServer<GatewayContext>({
    gateway,
    logger: log,
    introspection: !production,
    includeStacktraceInErrorResponses: false,
    // "Did you mean …?" would give back the schema that turning introspection off hides.
    hideSchemaDetailsFromClientErrors: production,
    plugins: [
      // The gateway knows the client, not what a subgraph's arguments mean: it counts the per-client logs,
      // and the subgraph that owns a field counts per account and per recipient.
      rateLimitPlugin<GatewayContext>(
        {
          fields: declaredRateLimits(parse(supergraphSdl)),
          limits: rateLimitsOf(config),
          store: rateLimitStore,
          scope: 'client',
          ...(rateLimitRefusals ? { refusals: rateLimitRefusals } : {}),
        },
        (context) => ({ client: context.clientIp, account: null }),
      ),
      sessionCookiePlugin(config.COOKIE_SECURE),
      unexpectedErrorLog<GatewayContext>(),
      ...plugins,
    ],
    formatError: (formatted) => maskError(formatted),
  });
}
