import { entitlementFromCopy } from '../src/entitlements';

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
