import { GraphQLError } from 'graphql';

/**
 * The error codes Haven's GraphQL API uses, and the HTTP status each maps to
 * in the REST facade. One table, used by the services and the gateway alike.
 */
export const errorStatus = {
  BAD_USER_INPUT: 400,
  UNAUTHENTICATED: 401,
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
