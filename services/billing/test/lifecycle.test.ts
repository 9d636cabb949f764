import {
  accessAfter,
  addMonth,
  afterFailedRetry,
  paymentRetryDelaysMs,
  retriesAfterFailure,
  chargeRecordedBy,
  dueStep,
  mayStartSubscription,
  openAtProvider,
  recordDefect,
  type ScheduledSubscription,
} from '../src/domain/lifecycle';
import { changeFromStripe } from '../src/domain/stripe-events';
import { brandOfCardNumber, normaliseCardNumber, outcomeOfTestCard } from '../src/domain/test-cards';

const now = new Date('2026-05-10T12:00:00.000Z');
const hour = 3_600_000;
const at = (ms: number) => new Date(now.getTime() + ms);
const trial = (overrides: Partial<ScheduledSubscription> = {}): ScheduledSubscription => ({
  status: 'trialing',
  trialEnd: at(72 * hour),
  currentPeriodEnd: at(72 * hour),
  cancelAtPeriodEnd: false,
  trialReminderSent: false,
  ...overrides,
});

describe('dueStep (the scheduler)', () => {
  it('reminds about a day before the trial ends, once, and not for a cancelled trial', () => {
    expect(dueStep(trial({ trialEnd: at(25 * hour) }), now, true)).toBeNull();
    expect(dueStep(trial({ trialEnd: at(23 * hour) }), now, true)).toBe('trial_will_end');
    expect(dueStep(trial({ trialEnd: at(23 * hour), trialReminderSent: true }), now, true)).toBeNull();
    expect(dueStep(trial({ trialEnd: at(23 * hour), cancelAtPeriodEnd: true }), now, true)).toBeNull();
    expect(dueStep(trial({ trialEnd: at(23 * hour) }), now, false)).toBe('trial_will_end'); // Stripe too
  });

  it('charges after a trial, or expires a cancelled one; only where billing runs the lifecycle', () => {
    expect(dueStep(trial({ trialEnd: at(-1) }), now, true)).toBe('charge_after_trial');
    expect(dueStep(trial({ trialEnd: at(-1), cancelAtPeriodEnd: true }), now, true)).toBe('trial_expired');
    expect(dueStep(trial({ trialEnd: at(-1) }), now, false)).toBeNull();
  });

  it('renews an active period at its end, or ends a cancelled one', () => {
    const active = trial({ status: 'active', trialEnd: null, currentPeriodEnd: at(-1) });
    expect(dueStep(active, now, true)).toBe('renew');
    expect(dueStep({ ...active, cancelAtPeriodEnd: true }, now, true)).toBe('ended');
    expect(dueStep({ ...active, currentPeriodEnd: at(hour) }, now, true)).toBeNull();
    expect(dueStep({ ...active, status: 'payment_failed' }, now, true)).toBeNull();
  });
});

describe('retries of a failed payment (the local provider, on Stripe’s schedule)', () => {
  const failed = trial({ status: 'payment_failed', trialEnd: null, currentPeriodEnd: at(-hour) });

  it('retries when the retry is due, only where billing runs the lifecycle', () => {
    expect(dueStep({ ...failed, paymentRetryAt: at(hour) }, now, true)).toBeNull();
    expect(dueStep({ ...failed, paymentRetryAt: at(-1) }, now, true)).toBe('retry_payment');
    expect(dueStep({ ...failed, paymentRetryAt: at(-1) }, now, false)).toBeNull();
    expect(dueStep({ ...failed, paymentRetryAt: null }, now, true)).toBeNull();
    expect(recordDefect({ status: 'payment_failed', customerId: 'cus', paymentMethodId: '' }, 'retry_payment')).toBe(
      'no_payment_method',
    );
  });

  it('retries 3, 7 and 14 days after the failure, then ends the subscription', () => {
    const first = retriesAfterFailure(now);
    expect(first).toEqual({ paymentRetries: 0, paymentRetryAt: at(3 * 24 * hour) });
    const second = afterFailedRetry(0, first.paymentRetryAt);
    expect(second).toEqual({ ends: false, paymentRetries: 1, paymentRetryAt: at(7 * 24 * hour) });
    const third = afterFailedRetry(1, at(7 * 24 * hour));
    expect(third).toEqual({ ends: false, paymentRetries: 2, paymentRetryAt: at(14 * 24 * hour) });
    expect(afterFailedRetry(2, at(14 * 24 * hour))).toEqual({ ends: true });
    expect(afterFailedRetry(paymentRetryDelaysMs.length, now)).toEqual({ ends: true });
  });
});

describe('recordDefect (what the scheduler sets aside)', () => {
  const card = { customerId: 'cus_local_1', paymentMethodId: 'pm_local_ok_1' };

  it('finds a status billing never writes, whatever step is due', () => {
    expect(recordDefect({ ...card, status: 'past_due' }, null)).toBe('unknown_status');
    expect(recordDefect({ ...card, status: undefined as unknown as string }, null)).toBe('unknown_status');
    for (const status of ['trialing', 'active', 'canceled', 'trial_expired', 'payment_failed']) {
      expect(recordDefect({ ...card, status }, null)).toBeNull();
    }
  });

  it('finds no card or no customer to charge, only when a charge is due', () => {
    for (const due of ['charge_after_trial', 'renew'] as const) {
      expect(recordDefect({ ...card, status: 'active' }, due)).toBeNull();
      expect(recordDefect({ status: 'active', customerId: 'cus_local_1' }, due)).toBe('no_payment_method');
      expect(recordDefect({ ...card, status: 'active', paymentMethodId: '' }, due)).toBe('no_payment_method');
      expect(recordDefect({ ...card, status: 'active', customerId: null }, due)).toBe('no_payment_method');
    }
    // A reminder, an expiry or an end charges nothing: a record without a card still takes them.
    for (const due of ['trial_will_end', 'trial_expired', 'ended', null] as const) {
      expect(recordDefect({ status: 'trialing' }, due)).toBeNull();
    }
  });
});

describe('accessAfter (what the events carry)', () => {
  it('grants a trial until a day past its end while it will convert, and until its end once cancelled', () => {
    expect(accessAfter(trial(), now)).toEqual({
      status: 'trialing',
      granted: true,
      reason: '',
      // A day past the trial's end: the charge's event is on its way.
      validUntil: at((72 + 24) * hour),
    });
    expect(accessAfter(trial({ cancelAtPeriodEnd: true }), now).validUntil).toEqual(at(72 * hour));
  });

  it('grants a renewing plan until a day past its period, and a cancelled one until its period ends', () => {
    const active = trial({ status: 'active', trialEnd: null, currentPeriodEnd: at(30 * 24 * hour) });
    expect(accessAfter(active, now).validUntil).toEqual(at(31 * 24 * hour));
    expect(accessAfter({ ...active, cancelAtPeriodEnd: true }, now).validUntil).toEqual(at(30 * 24 * hour));
  });

  it('names the reason when access is closed', () => {
    expect(accessAfter(trial({ status: 'payment_failed' }), now)).toMatchObject({
      granted: false,
      reason: 'payment_failed',
    });
    expect(accessAfter(trial({ status: 'trial_expired' }), now)).toMatchObject({
      granted: false,
      reason: 'trial_expired',
    });
    expect(accessAfter(trial({ status: 'canceled' }), now)).toMatchObject({
      granted: false,
      reason: 'no_subscription',
    });
  });
});

describe('plan rules', () => {
  it('adds a calendar month, keeping to the month’s last day', () => {
    expect(addMonth(new Date('2026-01-31T10:00:00Z')).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(addMonth(new Date('2026-05-10T12:00:00Z')).toISOString()).toBe('2026-06-10T12:00:00.000Z');
  });

  it('lets a user subscribe only without an open subscription', () => {
    expect(mayStartSubscription(null, now)).toBe(true);
    expect(mayStartSubscription(trial(), now)).toBe(false);
    expect(mayStartSubscription(trial({ status: 'trial_expired' }), now)).toBe(true);
  });
});

describe('test cards', () => {
  it('reads spaced numbers, refuses what cannot be a card, and decides by the number', () => {
    expect(normaliseCardNumber('4242 4242 4242 4242')).toBe('4242424242424242');
    expect(normaliseCardNumber('abc')).toBeNull();
    expect(outcomeOfTestCard('4242424242424242')).toEqual({ outcome: 'ok', message: null });
    expect(outcomeOfTestCard('4000000000000002')).toEqual({ outcome: 'declined', message: 'Your card was declined.' });
    expect(outcomeOfTestCard('4000000000000341').outcome).toBe('charge_fails');
    expect(outcomeOfTestCard('4000000000000119').outcome).toBe('processing_error');
    expect(outcomeOfTestCard('5555555555554444')).toEqual({ outcome: 'ok', message: null });
    expect(outcomeOfTestCard('4111111111111111').outcome).toBe('declined');
  });

  it('names the brand a provider would, from the first digits', () => {
    expect(brandOfCardNumber('4242424242424242')).toBe('Visa');
    expect(brandOfCardNumber('5555555555554444')).toBe('Mastercard');
    expect(brandOfCardNumber('2223003122003222')).toBe('Mastercard');
    expect(brandOfCardNumber('378282246310005')).toBe('American Express');
    expect(brandOfCardNumber('6011111111111117')).toBe('Card');
  });
});

describe('changeFromStripe (webhooks)', () => {
  const current = { status: 'trialing' as const, cancelAtPeriodEnd: false, currentPeriodEnd: at(72 * hour) };
  const snapshot = {
    status: 'trialing' as const,
    trialEnd: at(72 * hour),
    currentPeriodEnd: at(72 * hour),
    cancelAtPeriodEnd: false,
  };

  it('maps each change to its event, and nothing to none', () => {
    expect(changeFromStripe(current, snapshot)).toBeNull();
    expect(changeFromStripe(current, { ...snapshot, status: 'active' })?.type).toBe('billing.activated');
    expect(changeFromStripe(current, { ...snapshot, status: 'payment_failed' })?.type).toBe('billing.payment_failed');
    expect(changeFromStripe(current, { ...snapshot, cancelAtPeriodEnd: true })?.type).toBe('billing.canceled');
    expect(changeFromStripe({ ...current, cancelAtPeriodEnd: true }, snapshot)?.type).toBe('billing.reactivated');
  });

  it('calls a subscription that ended in its trial an expired trial, and one that ended paid an end', () => {
    expect(changeFromStripe(current, { ...snapshot, status: 'canceled' })).toMatchObject({
      status: 'trial_expired',
      type: 'billing.trial_expired',
    });
    expect(changeFromStripe({ ...current, status: 'active' }, { ...snapshot, status: 'canceled' })).toMatchObject({
      status: 'canceled',
      type: 'billing.ended',
    });
  });

  it('notices a renewal by the later period end', () => {
    const active = { ...current, status: 'active' as const };
    expect(changeFromStripe(active, { ...snapshot, status: 'active', currentPeriodEnd: at(800 * hour) })?.type).toBe(
      'billing.renewed',
    );
  });
});

describe('what an account deletion cancels at the provider', () => {
  it('every subscription the provider still runs, cancelled at the period end or not', () => {
    expect(openAtProvider({ status: 'trialing' })).toBe(true);
    expect(openAtProvider({ status: 'active' })).toBe(true);
    expect(openAtProvider({ status: 'payment_failed' })).toBe(true);
    expect(openAtProvider({ status: 'canceled' })).toBe(false);
    expect(openAtProvider({ status: 'trial_expired' })).toBe(false);
    expect(openAtProvider(null)).toBe(false);
  });
});

describe('chargeRecordedBy (what a receipt shows)', () => {
  it('is one charge of £4.99 for Haven Premium when a subscription becomes active or renews, and nothing else', () => {
    const charge = { amountMinor: 499, currency: 'gbp', planName: 'Haven Premium', chargedAt: now };
    expect(chargeRecordedBy('billing.activated', now)).toEqual(charge);
    expect(chargeRecordedBy('billing.renewed', now)).toEqual(charge);
    for (const type of [
      'billing.trial_started',
      'billing.trial_will_end',
      'billing.canceled',
      'billing.reactivated',
      'billing.payment_failed',
      'billing.trial_expired',
      'billing.ended',
    ]) {
      expect(chargeRecordedBy(type, now)).toBeNull();
    }
  });
});
