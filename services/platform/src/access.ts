import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { GraphQLError, Kind, TypeInfo, visit, visitWithTypeInfo, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { Caller, SessionClaims } from './auth';

/**
 * The one access policy of every subgraph: who is signed in, who may read a user's data (the owner, or an
 * admin), and who may use the paid features (an active or trialing subscription). Roles and entitlements
 * are facts looked up while the request runs (see `AccessFacts`), never claims inside the 7-day session
 * token, so a demotion or an expired trial takes effect on the next request. docs/decisions/security/access-policy.md.
 */

export type Role = 'admin' | 'member';

/** Why the paid features are closed; the web app shows one notice per reason (web/src/graphql/errors.ts). */
export type DeniedReason = 'trial_expired' | 'payment_failed' | 'no_subscription';

export type Entitlement = { granted: true } | { granted: false; reason: DeniedReason };

/**
 * What the policy may need to know about the signed-in caller, each looked up at most once per request
 * and only when a check needs it (an owner reading their own data costs no lookup at all).
 */
export interface AccessFacts {
  role(): Promise<Role>;
  entitlement(): Promise<Entitlement>;
}

export interface AccessContext {
  session: SessionClaims | null;
  access: AccessFacts;
}

/** The words for a closed feature: the web app shows them under the reason's title (web/src/graphql/errors.ts). */
export const deniedMessages: Record<DeniedReason, string> = {
  trial_expired: 'Your 3-day free trial has ended. Please subscribe to continue.',
  payment_failed: 'Your payment could not be processed. Please update your payment method.',
  no_subscription: 'Please subscribe to access this feature.',
};

export const notSignedInMessage = 'Not signed in';
/** What a non-admin is told on an admin page (the alert of the admin pages). */
export const adminOnlyMessage = 'Admin access required. Please contact support if you believe this is an error.';
export const notYoursMessage = 'You can only see your own account.';
/** What anyone but a Haven service is told when it asks for an operation of the services. */
export const servicesOnlyMessage = 'This operation is for Haven’s own services only.';

/** The configured admin address, compared case-insensitively; no address configured means no admin. */
export function isAdminEmail(email: string, adminEmail: string | undefined): boolean {
  return (
    adminEmail !== undefined &&
    adminEmail.trim() !== '' &&
    email.trim().toLowerCase() === adminEmail.trim().toLowerCase()
  );
}

/** From billing's view of a subscription to the entitlement: active or trialing opens the paid features. */
export function entitlementOf(subscription: { status: string; hasActiveSubscription: boolean }): Entitlement {
  if (subscription.hasActiveSubscription) return { granted: true };
  if (subscription.status === 'trial_expired') return { granted: false, reason: 'trial_expired' };
  if (subscription.status === 'payment_failed') return { granted: false, reason: 'payment_failed' };
  return { granted: false, reason: 'no_subscription' };
}

/**
 * Errors carry `requiresAuth` and `reason`: with `requiresAuth: true` and a reason, the web app shows the
 * notice for the reason and sends the user to /auth (its 403 handling); the REST facade copies both into
 * its body. `requiresAuth: false` marks a refusal that signing in again would not change.
 */
function denied(code: 'UNAUTHENTICATED' | 'FORBIDDEN', message: string, requiresAuth: boolean, reason: string) {
  return new GraphQLError(message, { extensions: { code, requiresAuth, reason } });
}

/** The caller's session, or UNAUTHENTICATED. */
export function requireSession(context: Pick<AccessContext, 'session'>): SessionClaims {
  if (!context.session) throw denied('UNAUTHENTICATED', notSignedInMessage, true, 'not_signed_in');
  return context.session;
}

/** The owner may read their own data; an admin may read anyone's. Signed out, nobody's. */
export async function mayReadUser(context: AccessContext, userId: string): Promise<boolean> {
  if (!context.session) return false;
  if (context.session.userId === userId) return true;
  return (await context.access.role()) === 'admin';
}

/** mayReadUser, or FORBIDDEN (UNAUTHENTICATED when signed out). */
export async function requireMayReadUser(context: AccessContext, userId: string): Promise<SessionClaims> {
  const session = requireSession(context);
  if (!(await mayReadUser(context, userId))) throw denied('FORBIDDEN', notYoursMessage, false, 'not_owner');
  return session;
}

/** What someone signed in too long ago is told before an account is deleted. */
export const reauthRequiredMessage =
  'For your safety, please sign in again before deleting an account. You will come back here to finish.';

/**
 * The caller's session, opened (signed in) at most `maxAgeMs` ago; else REAUTH_REQUIRED (401), which the web
 * app answers by asking for the sign-in again and coming back. An unlocked screen or a stolen week-old cookie
 * must not be enough to erase an account.
 */
export function requireRecentSignIn(
  context: Pick<AccessContext, 'session'>,
  maxAgeMs: number,
  now: number = Date.now(),
): SessionClaims {
  const session = requireSession(context);
  const age = session.issuedAt === undefined ? Infinity : now - session.issuedAt * 1000;
  if (age > maxAgeMs) {
    throw new GraphQLError(reauthRequiredMessage, {
      extensions: { code: 'REAUTH_REQUIRED', requiresAuth: false, reason: 'reauth_required' },
    });
  }
  return session;
}

export async function requireAdmin(context: AccessContext): Promise<SessionClaims> {
  const session = requireSession(context);
  if ((await context.access.role()) !== 'admin') throw denied('FORBIDDEN', adminOnlyMessage, false, 'admin_only');
  return session;
}

/**
 * The paid features: an active or trialing subscription, else FORBIDDEN with `requiresAuth: true` and the
 * reason (`trial_expired`, `payment_failed`, `no_subscription`), which the REST facade answers as
 * `403 { message, requiresAuth: true, reason }`, the body web/src/graphql/errors.ts reads.
 */
export async function requireEntitlement(context: AccessContext): Promise<SessionClaims> {
  const session = requireSession(context);
  const entitlement = await context.access.entitlement();
  if (!entitlement.granted) {
    throw denied('FORBIDDEN', deniedMessages[entitlement.reason], true, entitlement.reason);
  }
  return session;
}

export interface AccessFactSources {
  /** Looks up the caller's role; absent = this service never needs it (asking is then a programming error). */
  role?: (session: SessionClaims) => Promise<Role>;
  entitlement?: (session: SessionClaims) => Promise<Entitlement>;
}

/** Per-request facts: each source is called at most once, and only if a check asks. */
export function accessFacts(session: SessionClaims | null, sources: AccessFactSources): AccessFacts {
  const once = <T>(name: string, source: ((session: SessionClaims) => Promise<T>) | undefined, signedOut: T) => {
    let pending: Promise<T> | undefined;
    return () => {
      if (!session) return Promise.resolve(signedOut);
      if (!source) return Promise.reject(new Error(`this service has no source for the caller's ${name}`));
      pending ??= source(session);
      return pending;
    };
  };
  return {
    role: once<Role>('role', sources.role, 'member'),
    entitlement: once<Entitlement>('entitlement', sources.entitlement, { granted: false, reason: 'no_subscription' }),
  };
}

/**
 * The fields marked `@internal` in a subgraph's schema, as `Type.field`: what only Haven's services call (the
 * deletion saga's steps, test hooks), declared next to the schema rather than kept in a list. Each must be
 * `@inaccessible` too, so it stays out of the public supergraph the gateway serves.
 */
export function internalFields(schema: DocumentNode): Set<string> {
  const fields = new Set<string>();
  for (const definition of schema.definitions) {
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.OBJECT_TYPE_EXTENSION) continue;
    for (const field of definition.fields ?? []) {
      const marked = (name: string) => field.directives?.some((directive) => directive.name.value === name) ?? false;
      if (!marked('internal')) continue;
      const coordinate = `${definition.name.value}.${field.name.value}`;
      if (!marked('inaccessible')) throw new Error(`${coordinate} is @internal, so it must be @inaccessible too`);
      fields.add(coordinate);
    }
  }
  return fields;
}

/** The first internal field the document selects anywhere (every operation and fragment, at any depth). */
function internalFieldIn(document: DocumentNode, schema: GraphQLSchema, fields: Set<string>): string | null {
  const typeInfo = new TypeInfo(schema);
  let found: string | null = null;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const coordinate = `${typeInfo.getParentType()?.name ?? ''}.${node.name.value}`;
        if (fields.has(coordinate)) found ??= coordinate;
      },
    }),
  );
  return found;
}

/**
 * Refuses an operation that selects an `@internal` field unless the caller presents the service credential
 * (`Caller.service`): the gateway's secret and a user's session do not open it, so neither a user through the
 * gateway nor anything that borrows the gateway's secret reaches the services' own operations.
 */
export function internalOperationGuard<Context extends BaseContext & { caller: Caller }>(
  schema: DocumentNode,
): ApolloServerPlugin<Context> {
  const fields = internalFields(schema);
  return {
    async requestDidStart() {
      if (fields.size === 0) return;
      return {
        async didResolveOperation({ document, schema: runningSchema, contextValue }) {
          if (contextValue.caller.service) return;
          const field = internalFieldIn(document, runningSchema, fields);
          if (!field) return;
          const error = denied('FORBIDDEN', servicesOnlyMessage, false, 'services_only');
          error.extensions.http = { status: 403 };
          throw error;
        },
      };
    },
  };
}
