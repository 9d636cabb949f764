/**
 * The notification service's retention periods: the cutoffs at a chosen instant, and a delivery log kept longer
 * than any of its claims is still consulted, so the sweep never lets an e-mail go twice.
 */
import { processedEventRetentionMs } from '@haven/platform';
import { confirmationTtlMs } from '../src/domain/newsletter';
import {
  deliveryRetentionMs,
  expiredConfirmationRetentionMs,
  retentionCutoffs,
  unsubscribedRetentionMs,
} from '../src/domain/retention';
import { summaryWindow } from '../src/domain/weekly-summary';
import { sweepWindowMs } from '../src/events/newsletter-fanout';

const day = 24 * 60 * 60 * 1000;

it('states the periods the privacy policy names: 90 days, 30 days, and a week past the link’s expiry', () => {
  expect([deliveryRetentionMs, unsubscribedRetentionMs, expiredConfirmationRetentionMs]).toEqual([
    90 * day,
    30 * day,
    7 * day,
  ]);
  expect(retentionCutoffs(new Date('2026-11-28T12:00:00Z'))).toEqual({
    deliveries: new Date('2026-08-30T12:00:00Z'),
    unsubscribed: new Date('2026-10-29T12:00:00Z'),
    expiredConfirmations: new Date('2026-11-21T12:00:00Z'),
  });
  // A pending address goes nine days after its confirmation e-mail at the earliest.
  expect(confirmationTtlMs + expiredConfirmationRetentionMs).toBe(9 * day);
});

it('keeps a delivery record longer than any claim is read: redelivered events, the newsletter sweep, the summary', () => {
  // Events stay on Kafka 13 days at most plus a day's segment; consumers remember handled ids for 14 days.
  const longestRedelivery = processedEventRetentionMs;
  expect(deliveryRetentionMs).toBeGreaterThan(longestRedelivery);
  expect(deliveryRetentionMs).toBeGreaterThan(sweepWindowMs);
  expect(deliveryRetentionMs).toBeGreaterThan((summaryWindow.toHour - summaryWindow.fromHour) * 60 * 60 * 1000);
});
