import { entitlementDrift, entitlementFromCopy, type BillingEntitlementRecord } from '../src/entitlements';

const now = new Date('2026-05-10T12:00:00.000Z');

describe('entitlementFromCopy', () => {
  it('says nothing without a copy (billing is asked)', () => {
    expect(entitlementFromCopy(null, now)).toBeNull();
  });

  it('grants until validUntil, then closes by itself', () => {
    const copy = { granted: true, reason: '', status: 'trialing', validUntil: new Date(now.getTime() + 1) };
    expect(entitlementFromCopy(copy, now)).toEqual({ granted: true });
    expect(entitlementFromCopy({ ...copy, validUntil: now }, now)).toEqual({ granted: false, reason: 'trial_expired' });
    expect(entitlementFromCopy({ ...copy, status: 'active', validUntil: now }, now)).toEqual({
      granted: false,
      reason: 'no_subscription',
    });
    expect(entitlementFromCopy({ ...copy, validUntil: null }, now)).toEqual({ granted: true });
  });

  it('passes the reason of a denial on, and never an unknown one', () => {
    const denied = { granted: false, status: 'payment_failed', validUntil: null };
    expect(entitlementFromCopy({ ...denied, reason: 'payment_failed' }, now)).toEqual({
      granted: false,
      reason: 'payment_failed',
    });
    expect(entitlementFromCopy({ ...denied, reason: 'weird' }, now)).toEqual({
      granted: false,
      reason: 'no_subscription',
    });
  });
});

describe('entitlementDrift', () => {
  const asOf = Date.UTC(2026, 10, 29) / 1000;
  const record = (fields: Partial<BillingEntitlementRecord> = {}): BillingEntitlementRecord => ({
    userId: 'u1',
    revision: 4,
    status: 'trialing',
    granted: true,
    reason: '',
    validUntil: null,
    trialEnd: asOf + 3600,
    asOf,
    ...fields,
  });
  const copy = { revision: 4, status: 'trialing', granted: true, reason: '', validUntil: null };

  it('finds none in a copy that decides as billing does', () => {
    expect(entitlementDrift(copy, record())).toBe(false);
    const denied = { ...copy, status: 'payment_failed', granted: false, reason: 'payment_failed' };
    expect(
      entitlementDrift(denied, record({ status: 'payment_failed', granted: false, reason: 'payment_failed' })),
    ).toBe(false);
  });

  it('finds a copy that decides otherwise at billing’s now, or gives another reason', () => {
    expect(entitlementDrift({ ...copy, granted: false, reason: 'payment_failed' }, record())).toBe(true);
    const expiredTrial = record({ status: 'trial_expired', granted: false, reason: 'trial_expired' });
    expect(entitlementDrift({ ...copy, granted: false, reason: 'payment_failed' }, expiredTrial)).toBe(true);
  });

  it('reads a grant with an end as billing would at its now: ended is no drift once billing says so too', () => {
    const ended = { ...copy, validUntil: new Date((asOf - 60) * 1000) };
    expect(entitlementDrift(ended, record({ status: 'trial_expired', granted: false, reason: 'trial_expired' }))).toBe(
      false,
    );
    expect(entitlementDrift(ended, record())).toBe(true);
  });

  it('finds a copy older than billing’s record, not one newer (an event that came after billing answered)', () => {
    expect(entitlementDrift({ ...copy, revision: 3 }, record())).toBe(true);
    expect(entitlementDrift({ ...copy, revision: 5, granted: false, reason: 'no_subscription' }, record())).toBe(false);
  });

  it('finds any copy of a user billing has no subscription for', () => {
    expect(entitlementDrift(copy, null)).toBe(true);
  });
});
