/**
 * What the scheduled e-mails (the weekly summary, the daily check-in reminder) share: what they are built
 * from, a pass over the users who turned one on, a page at a time, and the scheduler that runs a pass on every
 * replica (the delivery log's claims, keyed by person and period, let one copy out).
 */
import { runPeriodically, type PeriodicOptions, type PeriodicWork, type PersonKeyring } from '@haven/platform';
import type { Model } from 'mongoose';
import type { EmailPreferences } from '../domain/preferences';
import type { DeliveryRecord } from '../model/delivery';
import type { KnownUserRecord } from '../model/known-user';
import { pagesOfUsersWith, type PreferencesRecord } from '../model/preferences';
import type { WeeklyCheckInsRecord } from '../model/weekly-check-ins';
import type { DeliveryRequest, MailingDeps } from '../providers/mailer';

export interface ScheduledEmailDeps extends MailingDeps {
  tallies: Model<WeeklyCheckInsRecord>;
  /** Opens the tallies' days, sealed under each person's key. */
  keyring: PersonKeyring;
  knownUsers: Model<KnownUserRecord>;
  preferences: Model<PreferencesRecord>;
  pageSize?: number;
}

export interface ScheduledEmailSender {
  /**
   * One pass at `now`: returns how many e-mails it sent. The scheduler calls it with the clock; a test may call
   * it with any instant.
   */
  sendDue(now: Date): Promise<number>;
}

/** One pass: `sendPage` for each page of the users with `governing` on; a failed page is logged and the pass goes on. */
export async function passOverUsersWith(
  deps: Pick<ScheduledEmailDeps, 'preferences' | 'log' | 'pageSize'>,
  governing: keyof EmailPreferences,
  what: string,
  sendPage: (userIds: string[]) => Promise<number>,
): Promise<number> {
  let sent = 0;
  for await (const userIds of pagesOfUsersWith(deps.preferences, governing, deps.pageSize ?? 500)) {
    try {
      sent += await sendPage(userIds);
    } catch (error) {
      deps.log.warn({ err: error }, `${what} page failed; the next pass tries again`);
    }
  }
  return sent;
}

/**
 * Runs a pass every `intervalMs`, well under the sending window (the summary's three hours, the reminder's
 * hour), so every window sees several passes.
 */
export function startScheduledEmails(sender: ScheduledEmailSender, options: PeriodicOptions): PeriodicWork<number> {
  return runPeriodically(() => sender.sendDue(new Date()), { ...options, what: `${options.what} pass` });
}

/** The claims among `keys` that an earlier pass settled (sent, or refused for good): not sent again. */
export async function settledKeys(deliveries: Model<DeliveryRecord>, keys: string[]): Promise<Set<string>> {
  const found = await deliveries.find({ _id: { $in: keys } }, { _id: 1, status: 1 }).lean();
  return new Set(found.filter((delivery) => delivery.status !== 'retryable').map((delivery) => delivery._id));
}

/**
 * Sends one scheduled e-mail at most once under its `onceKey`: true when this pass sent it. A send that may
 * succeed later (no connection, a 4xx) is logged and its claim is open again for the next pass in the window.
 */
export async function sendScheduled(
  deps: Pick<ScheduledEmailDeps, 'mailer' | 'log'>,
  request: DeliveryRequest,
  what: string,
): Promise<boolean> {
  try {
    return (await deps.mailer.deliverOnce(request)) === 'sent';
  } catch (error) {
    deps.log.warn({ err: error, userId: request.userId }, `${what} not sent yet; retried later`);
    return false;
  }
}
