/**
 * The weekly summary e-mail (opt-in): a scheduler sends, in each user's Sunday-morning window, the summary of the
 * week that just ended, from the tally events/weekly-summary.ts keeps. Once per (user, week) whichever replica runs
 * it: the delivery log's claim is keyed by both.
 */
import { countryOfTimeZone, dayNumber } from '@haven/domain';
import { emailKinds } from '../domain/email-kinds';
import {
  keptDays,
  renderWeeklySummaryEmail,
  summarise,
  summaryWeekAt,
  type SummaryWeek,
} from '../domain/weekly-summary';
import { stopToken } from '../domain/stop-links';
import { timeZoneOf } from '../model/known-user';
import { openDays } from '../model/weekly-check-ins';
import {
  passOverUsersWith,
  sendScheduled,
  settledKeys,
  type ScheduledEmailDeps,
  type ScheduledEmailSender,
} from './scheduled-emails';

/** The delivery log's key of one user's summary of one week. */
export const weeklySummaryKey = (userId: string, week: Pick<SummaryWeek, 'id'>) =>
  `weekly-summary:${userId}:${week.id}`;

export function weeklySummarySender(deps: ScheduledEmailDeps): ScheduledEmailSender {
  const kind = 'weekly-summary' as const;
  const governing = emailKinds[kind];

  const sendPage = async (userIds: string[], now: Date): Promise<number> => {
    // A summary carries mood figures: only to an address its owner has proved.
    const users = await deps.knownUsers.find({ _id: { $in: userIds }, emailVerified: true }).lean();
    const due = users.flatMap((user) => {
      const week = summaryWeekAt(now, timeZoneOf(user));
      return week ? [{ user, week, key: weeklySummaryKey(user._id, week) }] : [];
    });
    if (due.length === 0) return 0;
    // The window lasts hours and passes come every few minutes: skip what an earlier pass settled.
    const settled = await settledKeys(
      deps.deliveries,
      due.map((entry) => entry.key),
    );
    const open = due.filter((entry) => !settled.has(entry.key));
    if (open.length === 0) return 0;
    const tallies = new Map(
      (await deps.tallies.find({ _id: { $in: open.map((entry) => entry.user._id) } }).lean()).map((tally) => [
        tally._id,
        tally,
      ]),
    );
    let sent = 0;
    for (const { user, week, key } of open) {
      const tally = tallies.get(user._id);
      const days = tally ? await openDays(deps.keyring, user._id, tally.days) : null;
      const summary = tally && days ? summarise({ ...tally, days }, week) : null;
      if (!summary) continue; // no check-in that week: nothing to send
      const email = renderWeeklySummaryEmail({
        productName: deps.productName,
        appUrl: deps.appUrl,
        summary,
        stopToken: stopToken(deps.linkKey, user._id, kind),
        country: countryOfTimeZone(timeZoneOf(user)),
      });
      const request = {
        eventId: `weekly-summary:${week.id}`,
        kind,
        userId: user._id,
        to: user.email,
        email,
        onceKey: key,
      };
      if (await sendScheduled(deps, request, 'weekly summary')) sent += 1;
    }
    return sent;
  };

  return {
    async sendDue(now) {
      const sent = await passOverUsersWith(deps, governing, 'weekly summary', (userIds) => sendPage(userIds, now));
      // Bounded: a tally whose newest check-in is older than the kept days has nothing left to say.
      await deps.tallies.deleteMany({ 'streak.lastDay': { $lt: dayNumber(now, 'UTC') - keptDays - 1 } });
      return sent;
    },
  };
}
