import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { NextFunction, Request, Response } from 'express';
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { Logger } from './logger';

/**
 * The error codes Haven's GraphQL API uses, and the HTTP status each maps to
 * in the REST facade. One table, used by the services and the gateway alike.
 */
export const errorStatus = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
  /** Signed in, but too long ago for what was asked (deleting an account): sign in again, then retry. */
  REAUTH_REQUIRED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 400,
  TOO_MANY_REQUESTS: 429,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL_SERVER_ERROR: 500,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export function httpStatusOf(code: unknown): number {
  return typeof code === 'string' && Object.hasOwn(errorStatus, code) ? errorStatus[code as ErrorCode] : 500;
}

export interface FieldProblemLike {
  field: string;
  message: string;
}

/** Bad input: names the field (and lists every problem), so a form can show each message beside its field. */
export function badInput(
  field: string,
  message: string,
  problems: FieldProblemLike[] = [{ field, message }],
): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', field, problems } });
}

/** Refuses input with every problem found, the first one named as the error's field and message. */
export function rejectInput(problems: readonly FieldProblemLike[]): never {
  const [first] = problems as readonly [FieldProblemLike, ...FieldProblemLike[]];
  throw badInput(first.field, first.message, [...problems]);
}

export function unauthenticated(message = 'Authentication required'): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'UNAUTHENTICATED' } });
}

export function forbidden(message: string, extra: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'FORBIDDEN', ...extra } });
}

export function notFound(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'NOT_FOUND' } });
}

export function conflict(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'CONFLICT' } });
}

export function tooManyRequests(message: string, retryAfterSeconds: number): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'TOO_MANY_REQUESTS', retryAfterSeconds } });
}

export const internalErrorMessage = 'Something went wrong on our side. Please try again in a moment.';

/** Codes whose message is written for people and may be shown as it is. */
function isExpected(code: unknown): boolean {
  return (
    (typeof code === 'string' && Object.hasOwn(errorStatus, code) && code !== 'INTERNAL_SERVER_ERROR') ||
    code === 'GRAPHQL_PARSE_FAILED' ||
    code === 'GRAPHQL_VALIDATION_FAILED' ||
    code === 'BAD_REQUEST' ||
    code === 'PERSISTED_QUERY_NOT_FOUND' ||
    code === 'OPERATION_RESOLUTION_FAILURE'
  );
}

/**
 * What leaves a GraphQL edge: expected errors keep their message and extensions, minus any stack trace
 * (a subgraph may include one); anything unexpected becomes one plain message. The details are logged
 * by unexpectedErrorLog, with the request's correlation id, which the reply carries in x-correlation-id.
 */
export function maskError(formatted: GraphQLFormattedError): GraphQLFormattedError {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { stacktrace, exception, ...extensions } = formatted.extensions ?? {};
  if (!isExpected(extensions.code)) {
    return { message: internalErrorMessage, path: formatted.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  }
  return { ...formatted, extensions };
}

/** Logs the errors maskError hides, through the request's own logger (it carries the correlation id). */
export function unexpectedErrorLog<Context extends BaseContext & { log: Logger }>(): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors({ errors, contextValue }) {
          for (const error of errors) {
            if (isExpected(error.extensions?.code) || isDatabaseUnavailable(error)) continue;
            contextValue.log?.error(
              { err: error.originalError ?? error, path: error.path },
              `unexpected error: ${error.message}`,
            );
          }
        },
      };
    },
  };
}

/** The parts of a body-parser error that say what was wrong with the request. */
interface HttpError {
  type?: string;
  status?: number;
  limit?: number;
}

function kilobytes(bytes: number | undefined): string {
  return bytes === undefined ? '' : ` (at most ${Math.round(bytes / 1024)}kb)`;
}

/**
 * Express's last error handler, for the gateway and every subgraph: a body that cannot be read gets a
 * 400 that says why; anything else a 500 with a plain message. Never Express's HTML page, a stack or a path.
 */
export function bodyErrorHandler(log: Logger) {
  return (error: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) return next(error);
    const http = (typeof error === 'object' && error !== null ? error : {}) as HttpError;
    switch (http.type) {
      case 'entity.parse.failed':
        res.status(400).json({ message: 'Malformed JSON in request body' });
        return;
      case 'entity.too.large':
        res.status(400).json({ message: `Request body is too large${kilobytes(http.limit)}` });
        return;
      case 'encoding.unsupported':
        res.status(400).json({ message: 'Request body uses a Content-Encoding that is not supported' });
        return;
      case 'charset.unsupported':
        res.status(400).json({ message: 'Request body must be UTF-8 JSON' });
        return;
    }
    if (http.status && http.status >= 400 && http.status < 500) {
      // e.g. a body that does not decompress as its Content-Encoding says
      res.status(400).json({ message: 'The request body could not be read (check its Content-Encoding)' });
      return;
    }
    log.error(
      { err: error, method: req.method, path: req.path, correlationId: req.header('x-correlation-id') },
      'unhandled error',
    );
    res.status(500).json({ message: internalErrorMessage });
  };
}

const databaseErrorNames = new Set([
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoNotConnectedError',
]);

/** True when an error (or what it wraps) says the database could not be reached in time. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    if (typeof current !== 'object') return false;
    const { name, message, originalError, cause } = current as {
      name?: string;
      message?: string;
      originalError?: unknown;
      cause?: unknown;
    };
    if (name && databaseErrorNames.has(name)) return true;
    if (
      typeof message === 'string' &&
      /buffering timed out|ECONNREFUSED .*:27017|connection .* closed/i.test(message)
    ) {
      return true;
    }
    current = originalError ?? cause;
  }
  return false;
}

export const databaseUnavailableMessage = 'Haven cannot reach its database right now. Please try again shortly.';

export function serviceUnavailable(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'SERVICE_UNAVAILABLE', http: { status: 503 } } });
}

/** A database outage is a 503 that says so, not a 500 with the driver's words. */
export function databaseUnavailable(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  if (!isDatabaseUnavailable(error)) return formatted;
  return {
    message: databaseUnavailableMessage,
    path: formatted.path,
    extensions: { code: 'SERVICE_UNAVAILABLE' },
  };
}
