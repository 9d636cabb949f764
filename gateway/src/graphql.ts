import { ApolloGateway, RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { ApolloServer, type ApolloServerPlugin, type BaseContext } from '@apollo/server';
import {
  correlationHeader,
  serviceCatalog,
  serviceUrlVariable,
  sessionHeader,
  tooManyRequests,
  type Logger,
} from '@haven/platform';
import { GraphQLError, Kind, type OperationDefinitionNode } from 'graphql';
import type { GatewayConfig } from './config';
import { depthLimit, fieldLimit } from './operation-limits';
import { RateLimiter } from './rate-limit';
import { sessionCookie } from './session';
import { readSupergraph, type SubgraphName } from './supergraph';

export interface GatewayContext extends BaseContext {
  /** The verified session token from the cookie, forwarded to subgraphs. */
  sessionToken: string | null;
  correlationId: string;
  clientIp: string;
  log: Logger;
  /** Set when a subgraph asked to start (token) or end (null) the browser session. */
  sessionChange?: { token: string | null };
}

/** Forwards the session and correlation id; turns "cannot reach the subgraph" into a 503. */
class SubgraphDataSource extends RemoteGraphQLDataSource<GatewayContext> {
  constructor(
    private readonly subgraphName: string,
    url: string,
  ) {
    super({ url });
  }

  override willSendRequest({ request, context }: GraphQLDataSourceProcessOptions<GatewayContext>): void {
    if (!('sessionToken' in context)) return; // gateway-internal requests carry no user context
    if (context.sessionToken) request.http?.headers.set('authorization', `Bearer ${context.sessionToken}`);
    request.http?.headers.set(correlationHeader, context.correlationId);
  }

  override didReceiveResponse({
    response,
    context,
  }: Parameters<NonNullable<RemoteGraphQLDataSource<GatewayContext>['didReceiveResponse']>>[0]) {
    const change = response.http?.headers.get(sessionHeader);
    if (change !== null && change !== undefined && 'sessionToken' in context) {
      context.sessionChange = { token: change === '' ? null : change };
    }
    return response;
  }

  override didEncounterError(error: Error, _request: unknown, fetchResponse?: unknown): void {
    if (fetchResponse === undefined) {
      throw new GraphQLError(`The ${this.subgraphName} service is unavailable. Please try again shortly.`, {
        extensions: { code: 'SERVICE_UNAVAILABLE', http: { status: 503 } },
        originalError: error,
      });
    }
    throw error;
  }
}

/** Mutations that guess or create credentials, rate-limited per client IP. */
const rateLimitedFields = new Set(['login', 'register', 'resendVerification']);

function rateLimitPlugin(limiter: RateLimiter): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, contextValue }) {
          for (const field of rootFieldsOf(operation)) {
            if (!rateLimitedFields.has(field)) continue;
            const retryAfter = limiter.hit(`${field}:${contextValue.clientIp}`);
            if (retryAfter !== null) {
              const error = tooManyRequests(
                `Too many attempts. Please try again in ${retryAfter} seconds.`,
                retryAfter,
              );
              error.extensions.http = { status: 429, headers: new Map([['retry-after', String(retryAfter)]]) };
              throw error;
            }
          }
        },
      };
    },
  };
}

function rootFieldsOf(operation: OperationDefinitionNode | undefined): string[] {
  if (operation?.operation !== 'mutation') return [];
  return operation.selectionSet.selections.flatMap((selection) =>
    selection.kind === Kind.FIELD ? [selection.name.value] : [],
  );
}

/** Turns a subgraph's request to start or end the session into the browser's cookie. */
function sessionCookiePlugin(secureCookie: boolean): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ contextValue, response }) {
          if (contextValue.sessionChange) {
            response.http.headers.set('set-cookie', sessionCookie(contextValue.sessionChange.token, secureCookie));
          }
        },
      };
    },
  };
}

export function createGatewayServer(
  config: GatewayConfig,
  log: Logger,
  plugins: ApolloServerPlugin<GatewayContext>[] = [],
) {
  const urls = Object.fromEntries(serviceCatalog.map(({ name }) => [name, config[serviceUrlVariable(name)]])) as Record<
    SubgraphName,
    string
  >;
  const gateway = new ApolloGateway({
    supergraphSdl: readSupergraph(),
    buildService: ({ name, url }) => new SubgraphDataSource(name, urls[name as SubgraphName] ?? url!),
    logger: log,
  });
  const production = config.NODE_ENV === 'production';
  return new ApolloServer<GatewayContext>({
    gateway,
    logger: log,
    introspection: !production,
    includeStacktraceInErrorResponses: false,
    validationRules: [depthLimit(10), fieldLimit(500)],
    plugins: [
      rateLimitPlugin(new RateLimiter(config.RATE_LIMIT_AUTH_MAX, config.RATE_LIMIT_AUTH_WINDOW_MS)),
      sessionCookiePlugin(config.COOKIE_SECURE),
      ...plugins,
    ],
    formatError: (formatted) => {
      // Unexpected failures keep their details in the logs, not in the response.
      if (production && formatted.extensions?.code === 'INTERNAL_SERVER_ERROR') {
        return { message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
      }
      return formatted;
    },
  });
}
