/**
 * Reading errors that come back from the gateway. Pure and duck-typed (no Apollo
 * imports) so it can be unit-tested without a browser:
 *
 * - GraphQL errors (Apollo's CombinedGraphQLErrors) carry `errors: [{ message, extensions }]`.
 * - A non-2xx HTTP reply (Apollo's ServerError) carries `statusCode` and `bodyText`; the body
 *   may itself be a GraphQL reply (`{ errors: [...] }`) or a REST-style `{ message, ... }`.
 * - Anything else (offline, DNS, CORS) is a network failure with no server message.
 */

export interface GraphQLErrorLike {
  message: string;
  extensions?: Record<string, unknown> | null;
}

/** The error codes the gateway uses in `extensions.code`. */
export type ErrorCode =
  'BAD_USER_INPUT' | 'UNAUTHENTICATED' | 'FORBIDDEN' | 'CONFLICT' | 'TOO_MANY_REQUESTS' | (string & {});

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function asGraphQLErrors(value: unknown): GraphQLErrorLike[] | null {
  if (!Array.isArray(value)) return null;
  const errors = value.filter((e): e is GraphQLErrorLike => isRecord(e) && typeof e.message === 'string');
  return errors.length > 0 ? errors : null;
}

function parseJson(text: unknown): unknown {
  if (typeof text !== 'string' || text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The GraphQL errors inside any error Apollo hands us (directly or in an HTTP error body). */
export function graphQLErrorsOf(error: unknown): GraphQLErrorLike[] {
  if (!isRecord(error)) return [];
  const direct = asGraphQLErrors(error.errors);
  if (direct) return direct;
  const body = parseJson(error.bodyText);
  if (isRecord(body)) {
    const inBody = asGraphQLErrors(body.errors);
    if (inBody) return inBody;
  }
  return [];
}

/** The first message the server wrote for the user, if any. */
export function serverMessage(error: unknown): string | undefined {
  const [first] = graphQLErrorsOf(error);
  if (first?.message.trim()) return first.message;
  if (isRecord(error)) {
    const body = parseJson(error.bodyText);
    if (isRecord(body) && typeof body.message === 'string' && body.message.trim()) {
      return body.message;
    }
  }
  return undefined;
}

/** The `extensions.code` of the first GraphQL error, if any. */
export function errorCode(error: unknown): ErrorCode | undefined {
  for (const e of graphQLErrorsOf(error)) {
    const code = e.extensions?.code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/**
 * Whether the server answered at all (GraphQL errors, or an HTTP status). An offline device, a dropped connection or
 * a failed DNS lookup has no answer: what was sent may or may not have arrived.
 */
export function serverAnswered(error: unknown): boolean {
  return graphQLErrorsOf(error).length > 0 || httpStatus(error) !== undefined;
}

/** The HTTP status of a non-2xx reply, if the error is one. */
export function httpStatus(error: unknown): number | undefined {
  return isRecord(error) && typeof error.statusCode === 'number' ? error.statusCode : undefined;
}

/** BAD_USER_INPUT errors name the offending input field in `extensions.field`. */
export function fieldErrors(error: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of graphQLErrorsOf(error)) {
    const field = e.extensions?.field;
    if (e.extensions?.code === 'BAD_USER_INPUT' && typeof field === 'string' && !(field in out)) {
      out[field] = e.message;
    }
  }
  return out;
}

// ── Subscription access expiry ──────────────────────────

export type AccessDeniedReason = 'trial_expired' | 'payment_failed' | 'no_subscription' | (string & {});

/**
 * A forbidden reply that ends the user's access: `extensions.code === 'FORBIDDEN'`,
 * `extensions.requiresAuth === true` and a `reason`. A REST-style 403 body
 * `{ requiresAuth: true, reason }` is recognised too. Returns the reason, or null.
 */
export function accessDeniedReason(error: unknown): AccessDeniedReason | null {
  for (const e of graphQLErrorsOf(error)) {
    const ext = e.extensions;
    if (ext?.code === 'FORBIDDEN' && ext.requiresAuth === true && typeof ext.reason === 'string' && ext.reason !== '') {
      return ext.reason;
    }
  }
  if (isRecord(error) && error.statusCode === 403) {
    const body = parseJson(error.bodyText);
    if (isRecord(body) && body.requiresAuth === true && typeof body.reason === 'string' && body.reason) {
      return body.reason;
    }
  }
  return null;
}

/** A reply that ended the user's access: its reason, and the words the server wrote for the person. */
export interface AccessDenial {
  reason: AccessDeniedReason;
  message: string | null;
}

/** As `accessDeniedReason`, with the server's own message (the server owns the words; the app names the reason). */
export function accessDenialOf(error: unknown): AccessDenial | null {
  const reason = accessDeniedReason(error);
  return reason ? { reason, message: serverMessage(error) ?? null } : null;
}

export interface Notice {
  title: string;
  description: string;
}

const deniedTitles: Record<string, string> = {
  trial_expired: 'Trial Expired',
  payment_failed: 'Payment Failed',
  no_subscription: 'Subscription Required',
};

/** The destructive notice: the reason's title over the server's words; a reason the app does not know ends the session. */
export function accessDeniedNotice({ reason, message }: AccessDenial): Notice {
  const title = Object.prototype.hasOwnProperty.call(deniedTitles, reason) ? deniedTitles[reason] : undefined;
  if (!title) return { title: 'Access Expired', description: 'Your session has ended' };
  return { title, description: message ?? 'Your access to this feature has ended.' };
}
