import { GraphQLError } from 'graphql';
import { restErrorOf } from '../../../gateway/src/rest/errors';
import {
  accessFacts,
  adminOnlyMessage,
  entitlementOf,
  isAdminEmail,
  mayReadUser,
  requireAdmin,
  requireEntitlement,
  requireMayReadUser,
  requireSession,
  type AccessContext,
  type Entitlement,
  type Role,
} from '../src/access';

const owner = { userId: 'u-owner', sessionId: 's-1' };

/** A caller with the given facts; counts how often each was looked up. */
function caller(session: AccessContext['session'], role: Role = 'member', entitlement?: Entitlement) {
  const lookups = { role: 0, entitlement: 0 };
  const context: AccessContext = {
    session,
    access: accessFacts(session, {
      role: async () => {
        lookups.role += 1;
        return role;
      },
      entitlement: async () => {
        lookups.entitlement += 1;
        return entitlement ?? { granted: true };
      },
    }),
  };
  return { context, lookups };
}

async function errorOf(action: () => Promise<unknown> | unknown): Promise<GraphQLError> {
  try {
    await action();
  } catch (error) {
    if (error instanceof GraphQLError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('isAdminEmail', () => {
  it('matches the configured address whatever its case and spacing', () => {
    expect(isAdminEmail('Admin@Haven.Example', 'admin@haven.example')).toBe(true);
    expect(isAdminEmail(' admin@haven.example ', 'ADMIN@HAVEN.EXAMPLE')).toBe(true);
  });
  it('makes nobody an admin when no address is configured, or another one is', () => {
    expect(isAdminEmail('admin@haven.example', undefined)).toBe(false);
    expect(isAdminEmail('admin@haven.example', '')).toBe(false);
    expect(isAdminEmail('someone@haven.example', 'admin@haven.example')).toBe(false);
  });
});

describe('requireSession', () => {
  it('returns the session of a signed-in caller', () => {
    expect(requireSession({ session: owner })).toBe(owner);
  });
  it('refuses a signed-out caller as UNAUTHENTICATED, telling the web app to sign in', async () => {
    const error = await errorOf(() => requireSession({ session: null }));
    expect(error.message).toBe('Not signed in');
    expect(error.extensions).toEqual({ code: 'UNAUTHENTICATED', requiresAuth: true, reason: 'not_signed_in' });
  });
});

describe('mayReadUser', () => {
  it('lets the owner read their own data without looking up a role', async () => {
    const { context, lookups } = caller(owner);
    expect(await mayReadUser(context, 'u-owner')).toBe(true);
    expect(lookups.role).toBe(0);
  });
  it("lets an admin read anyone's data", async () => {
    expect(await mayReadUser(caller(owner, 'admin').context, 'u-other')).toBe(true);
  });
  it("refuses a member another user's data, as FORBIDDEN without sending them to sign in", async () => {
    const { context } = caller(owner, 'member');
    expect(await mayReadUser(context, 'u-other')).toBe(false);
    const error = await errorOf(() => requireMayReadUser(context, 'u-other'));
    expect(error.extensions).toEqual({ code: 'FORBIDDEN', requiresAuth: false, reason: 'not_owner' });
  });
  it('refuses a signed-out caller, even for an empty id', async () => {
    expect(await mayReadUser(caller(null, 'admin').context, '')).toBe(false);
    expect((await errorOf(() => requireMayReadUser(caller(null).context, 'u-owner'))).extensions?.code).toBe(
      'UNAUTHENTICATED',
    );
  });
  it('looks the role up once per request, however many users are checked', async () => {
    const { context, lookups } = caller(owner, 'admin');
    await Promise.all(['a', 'b', 'c', 'd'].map((id) => mayReadUser(context, id)));
    expect(lookups.role).toBe(1);
  });
});

describe('requireAdmin', () => {
  it("passes an admin and refuses a member with the spec's alert", async () => {
    await expect(requireAdmin(caller(owner, 'admin').context)).resolves.toBe(owner);
    const error = await errorOf(() => requireAdmin(caller(owner, 'member').context));
    expect(error.message).toBe(adminOnlyMessage);
    expect(error.extensions).toEqual({ code: 'FORBIDDEN', requiresAuth: false, reason: 'admin_only' });
  });
});

describe('requireEntitlement', () => {
  it('passes an active or trialing subscriber', async () => {
    await expect(requireEntitlement(caller(owner, 'member', { granted: true }).context)).resolves.toBe(owner);
  });
  it.each([
    ['trial_expired', 'Your 3-day free trial has ended. Please subscribe to continue.'],
    ['payment_failed', 'Your payment could not be processed. Please update your payment method.'],
    ['no_subscription', 'Please subscribe to access this feature.'],
  ] as const)('refuses %s with the 403 the web app reads (requiresAuth and the reason)', async (reason, message) => {
    const error = await errorOf(() => requireEntitlement(caller(owner, 'member', { granted: false, reason }).context));
    expect(error.message).toBe(message);
    expect(error.extensions).toEqual({ code: 'FORBIDDEN', requiresAuth: true, reason });
  });
  it('asks for a session before looking anything up', async () => {
    const { context, lookups } = caller(null);
    expect((await errorOf(() => requireEntitlement(context))).extensions?.code).toBe('UNAUTHENTICATED');
    expect(lookups.entitlement).toBe(0);
  });
});

describe('entitlementOf (from billing’s subscription view)', () => {
  it.each([
    [{ status: 'active', hasActiveSubscription: true }, { granted: true }],
    [{ status: 'trialing', hasActiveSubscription: true }, { granted: true }],
    [
      { status: 'trial_expired', hasActiveSubscription: false },
      { granted: false, reason: 'trial_expired' },
    ],
    [
      { status: 'payment_failed', hasActiveSubscription: false },
      { granted: false, reason: 'payment_failed' },
    ],
    [
      { status: 'canceled', hasActiveSubscription: false },
      { granted: false, reason: 'no_subscription' },
    ],
    [
      { status: 'none', hasActiveSubscription: false },
      { granted: false, reason: 'no_subscription' },
    ],
  ])('%j → %j', (view, expected) => {
    expect(entitlementOf(view)).toEqual(expected);
  });
});

describe('accessFacts', () => {
  it('says plainly when a service asks for a fact it has no source for', async () => {
    await expect(accessFacts(owner, {}).entitlement()).rejects.toThrow("no source for the caller's entitlement");
  });
});

describe('through the REST facade', () => {
  it('answers a closed feature as 403 { message, requiresAuth: true, reason }, the body the web app reads', async () => {
    const error = await errorOf(() =>
      requireEntitlement(caller(owner, 'member', { granted: false, reason: 'trial_expired' }).context),
    );
    expect(restErrorOf([error.toJSON()])).toEqual({
      status: 403,
      body: {
        message: 'Your 3-day free trial has ended. Please subscribe to continue.',
        requiresAuth: true,
        reason: 'trial_expired',
      },
    });
  });
});
