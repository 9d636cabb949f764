/**
 * The daily check-in reminder (opt-in). A scheduler pass sends, to every user who turned it
 * on and whose address is verified, one e-mail in the hour they picked on their own clock, unless they
 * already checked in that local day (the weekly summary's tally, kept from `quote.generated` events, says so).
 * Once per (user, local day) whichever replica runs it: the delivery log's claim is keyed by both.
 */
import { reminderDayAt, reminderKey, renderCheckInReminderEmail } from '../domain/check-in-reminders';
import { emailKinds } from '../domain/email-kinds';
import { defaultReminderHour } from '../domain/preferences';
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

export function checkInReminderSender(deps: ScheduledEmailDeps): ScheduledEmailSender {
  const kind = 'check-in-reminder' as const;

  const sendPage = async (userIds: string[], now: Date): Promise<number> => {
    const [users, choices] = await Promise.all([
      deps.knownUsers.find({ _id: { $in: userIds }, emailVerified: true }).lean(),
      deps.preferences.find({ _id: { $in: userIds } }, { reminderHour: 1 }).lean(),
    ]);
    const hourOf = new Map(choices.map((choice) => [choice._id, choice.reminderHour]));
    const due = users.flatMap((user) => {
      const hour = hourOf.get(user._id) ?? defaultReminderHour;
      const day = reminderDayAt(now, timeZoneOf(user), hour);
      return day === null ? [] : [{ user, hour, day, key: reminderKey(user._id, day) }];
    });
    if (due.length === 0) return 0;
    // The hour sees several passes: skip what an earlier one settled, and whoever checked in that day.
    const [done, tallies] = await Promise.all([
      settledKeys(
        deps.deliveries,
        due.map((entry) => entry.key),
      ),
      deps.tallies.find({ _id: { $in: due.map((entry) => entry.user._id) } }, { days: 1 }).lean(),
    ]);
    const checkedInOn = new Map(
      await Promise.all(
        tallies.map(async (tally) => {
          const days = (await openDays(deps.keyring, tally._id, tally.days)) ?? [];
          return [tally._id, new Set(days.map((entry) => entry.day))] as const;
        }),
      ),
    );
    let sent = 0;
    for (const { user, hour, day, key } of due) {
      if (done.has(key) || checkedInOn.get(user._id)?.has(day)) continue;
      const email = renderCheckInReminderEmail({
        productName: deps.productName,
        appUrl: deps.appUrl,
        hour,
        stopToken: stopToken(deps.linkKey, user._id, kind),
      });
      const request = { eventId: key, kind, userId: user._id, to: user.email, email, onceKey: key };
      if (await sendScheduled(deps, request, 'check-in reminder')) sent += 1;
    }
    return sent;
  };

  return {
    sendDue: (now) =>
      passOverUsersWith(deps, emailKinds[kind], 'check-in reminder', (userIds) => sendPage(userIds, now)),
  };
}
