import {
  bulkDeleteMax,
  checkUserId,
  checkUserIds,
  isFullyPurged,
  paymentCleanupMessage,
  pendingServices,
  retryStep,
  type DeletionProgress,
} from '../src/domain/deletion';

const admin = '11111111-1111-4111-8111-111111111111';
const someone = '22222222-2222-4222-8222-222222222222';
const other = '33333333-3333-4333-8333-333333333333';
const minute = 60_000;
const timings = { openingGraceMs: 2 * minute, retryAfterMs: 15 * minute };
const start = new Date('2026-03-01T10:00:00Z');
const later = (ms: number) => new Date(start.getTime() + ms);

const progress = (overrides: Partial<DeletionProgress>): DeletionProgress => ({
  state: 'pending',
  purgedAt: {},
  createdAt: start,
  lastRequestedAt: start,
  ...overrides,
});

describe('the saga’s progress', () => {
  it('waits for all five services, and names the ones still to answer', () => {
    const partly = progress({ purgedAt: { user: start, quote: start, billing: null } });
    expect(pendingServices(partly)).toEqual(['billing', 'notification', 'compliance']);
    expect(isFullyPurged(partly)).toBe(false);
    const all = progress({
      purgedAt: { user: start, quote: start, billing: start, notification: start, compliance: start },
    });
    expect(isFullyPurged(all)).toBe(true);
  });

  it('sends on a request interrupted while opening, after the grace period only', () => {
    const opening = progress({ state: 'opening', lastRequestedAt: null });
    expect(retryStep(opening, later(minute), timings)).toBeNull();
    expect(retryStep(opening, later(2 * minute), timings)).toEqual({ kind: 'send' });
  });

  it('asks again only the services that have not answered, once the wait is over', () => {
    const waiting = progress({ purgedAt: { user: start, quote: start, billing: start, compliance: start } });
    expect(retryStep(waiting, later(14 * minute), timings)).toBeNull();
    expect(retryStep(waiting, later(15 * minute), timings)).toEqual({ kind: 'ask-again', services: ['notification'] });
  });

  it('owes nothing for a completed deletion', () => {
    expect(retryStep(progress({ state: 'completed' }), later(60 * minute), timings)).toBeNull();
  });
});

describe('the admin’s input', () => {
  it('takes one user id, never the admin’s own', () => {
    expect(checkUserId(someone.toUpperCase(), admin)).toEqual({ ok: true, value: someone });
    expect(checkUserId('nope', admin)).toMatchObject({ ok: false, field: 'id' });
    expect(checkUserId(admin, admin)).toMatchObject({ ok: false, field: 'id', message: expect.stringMatching(/own/) });
  });

  it('takes a list of 1 to 100 user ids, duplicates once, and names userIds for anything else', () => {
    expect(checkUserIds([someone, other, someone], admin)).toEqual({ ok: true, value: [someone, other] });
    const problems = [
      someone,
      undefined,
      [],
      [someone, 7],
      [someone, null],
      ['not-an-id'],
      [someone, admin],
      Array.from({ length: bulkDeleteMax + 1 }, () => someone),
    ].map((value) => checkUserIds(value, admin));
    for (const problem of problems) expect(problem).toMatchObject({ ok: false, field: 'userIds' });
  });

  it('says what happened to the payment subscription', () => {
    expect(paymentCleanupMessage(true)).toMatch(/subscription was cancelled/);
    expect(paymentCleanupMessage(false)).toMatch(/no subscription to cancel/);
  });
});
