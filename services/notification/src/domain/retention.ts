/**
 * How long the notification service keeps what it no longer needs to send, the periods the privacy policy
 * states, and the instants before which the retention sweep deletes (jobs/retention-sweep.ts). Pure, no I/O:
 * every "now" is passed in.
 */
const dayMs = 24 * 60 * 60 * 1000;

/**
 * The delivery log's record of an e-mail (recipient, kind, outcome). Its claims make each e-mail go once, and
 * the longest any claim is still consulted is far shorter: an event redelivered from Kafka (14 days at most,
 * `KAFKA_RETENTION_MS` plus a day's segment), a newsletter send the sweep may finish (a day), the weekly
 * summary's window (hours) and the reminder's hour.
 */
export const deliveryRetentionMs = 90 * dayMs;

/** An unsubscribed address after it left the list: kept for a month for questions, then gone. */
export const unsubscribedRetentionMs = 30 * dayMs;

/**
 * A never-confirmed address after its confirmation link stopped working (`confirmationTtlMs`, two days): nobody
 * can confirm it any more, and signing up again starts afresh, so a week's grace is all it keeps.
 */
export const expiredConfirmationRetentionMs = 7 * dayMs;

export interface RetentionCutoffs {
  /** Delivery records last written before this go. */
  deliveries: Date;
  /** Subscribers unsubscribed before this go. */
  unsubscribed: Date;
  /** Pending subscribers whose confirmation link expired before this go. */
  expiredConfirmations: Date;
}

export function retentionCutoffs(now: Date): RetentionCutoffs {
  const before = (ms: number) => new Date(now.getTime() - ms);
  return {
    deliveries: before(deliveryRetentionMs),
    unsubscribed: before(unsubscribedRetentionMs),
    expiredConfirmations: before(expiredConfirmationRetentionMs),
  };
}
