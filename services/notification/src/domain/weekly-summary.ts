/**
 * The weekly summary e-mail (opt-in): which week a send covers, the per-user tally kept
 * from `quote.generated` events, the summary's numbers and the e-mail itself. Pure, no I/O: every
 * "now" and time zone is passed in. Days, the streak and the trend's 0.3 threshold are the platform's
 * check-in rules, the same the quote service's progress and analytics pages use.
 */
import {
  supportResourcesFor,
  dateOfDay,
  dayNumber,
  moodDirection,
  notTherapyLine,
  recordDay,
  streakEndingOn,
  streakOnDay,
  weekdayOfDay,
  weekStartDay,
  type StreakState,
  type Trend,
} from '@haven/domain';
import { appLink, escapeHtml, helpPageLink, type RenderedEmail } from './email-parts';
import { stopHeaders, stopPageLink } from './stop-links';

/**
 * When it goes: Sunday between 09:00 and 12:00 in the user's own time zone, about the week that just
 * ended, Sunday to Saturday (the app's weeks start on Sunday, as its calendar and weekly goal do).
 */
export const summaryWindow = { weekday: 0, fromHour: 9, toHour: 12 } as const;

/** Days of tallies kept per user: the summarised week, the week before it, and a margin for zone changes. */
export const keptDays = 16;

export interface SummaryWeek {
  /** Day numbers (the domain package's check-in-rules) of the week's Sunday and Saturday. */
  firstDay: number;
  lastDay: number;
  /** The week's Sunday as yyyy-mm-dd: with the user id, the key that makes a summary go once. */
  id: string;
}

const hourFormats = new Map<string, Intl.DateTimeFormat>();

/** The hour (0–23) on the clock in an IANA time zone at an instant. */
export function localHour(instant: Date, timeZone: string): number {
  let format = hourFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' });
    hourFormats.set(timeZone, format);
  }
  return Number(format.format(instant));
}

/** The week a summary sent at `now` covers in this time zone, or null outside the sending window. */
export function summaryWeekAt(now: Date, timeZone: string): SummaryWeek | null {
  const today = dayNumber(now, timeZone);
  if (weekdayOfDay(today) !== summaryWindow.weekday) return null;
  const hour = localHour(now, timeZone);
  if (hour < summaryWindow.fromHour || hour >= summaryWindow.toHour) return null;
  const firstDay = weekStartDay(today - 1);
  return { firstDay, lastDay: firstDay + 6, id: dateOfDay(firstDay) };
}

/** One local day's check-ins: how many, and the sum of their moods (each the mean of six ratings, 1–5). */
export interface DayTally {
  day: number;
  checkIns: number;
  moodSum: number;
}

/** What the notification service keeps of one user's check-ins (collection `weekly_check_ins`). */
export interface CheckInTally {
  days: DayTally[];
  /** The latest check-ins folded in, so an event delivered twice counts once. */
  recentQuoteIds: string[];
  streak: StreakState;
}

export const recentQuoteIdsKept = 50;

/**
 * Folds one check-in into a user's tally, dropping days older than `keepFrom`; null when nothing changes
 * (a check-in already counted, or one too old to matter).
 */
export function foldCheckIn(
  tally: CheckInTally,
  checkIn: { quoteId: string; day: number; mood: number },
  keepFrom: number,
): CheckInTally | null {
  if (tally.recentQuoteIds.includes(checkIn.quoteId) || checkIn.day < keepFrom) return null;
  const days = tally.days.filter((entry) => entry.day >= keepFrom && entry.day !== checkIn.day);
  const same = tally.days.find((entry) => entry.day === checkIn.day);
  days.push({
    day: checkIn.day,
    checkIns: (same?.checkIns ?? 0) + 1,
    moodSum: (same?.moodSum ?? 0) + checkIn.mood,
  });
  days.sort((a, b) => a.day - b.day);
  return {
    days,
    recentQuoteIds: [...tally.recentQuoteIds, checkIn.quoteId].slice(-recentQuoteIdsKept),
    streak: recordDay(tally.streak, checkIn.day),
  };
}

/**
 * Takes a deleted check-in out of a user's tally: its day counts one check-in and its mood less (a day left with
 * none goes); null when its day is no longer kept. The quote id stays among the recent ones, so the check-in's
 * own event, delivered again, does not count it back. The streak's running state stays as it was: it says how
 * many days in a row the person came back, and a later deletion does not undo that they did.
 */
export function unfoldCheckIn(
  tally: CheckInTally,
  checkIn: { day: number; mood: number },
  keepFrom: number,
): CheckInTally | null {
  const same = tally.days.find((entry) => entry.day === checkIn.day);
  if (!same || checkIn.day < keepFrom) return null;
  const others = tally.days.filter((entry) => entry !== same);
  const left = { day: same.day, checkIns: same.checkIns - 1, moodSum: same.moodSum - checkIn.mood };
  return { ...tally, days: left.checkIns > 0 ? [...others, left].sort((a, b) => a.day - b.day) : others };
}

/**
 * Follows an edited check-in in a user's tally: its day's mood sum moves by the change (the day and the count stay,
 * as an edit never moves a check-in); null when its day is no longer kept or the mood did not change.
 */
export function reviseCheckIn(
  tally: CheckInTally,
  checkIn: { day: number; previousMood: number; mood: number },
  keepFrom: number,
): CheckInTally | null {
  const same = tally.days.find((entry) => entry.day === checkIn.day);
  if (!same || checkIn.day < keepFrom || checkIn.mood === checkIn.previousMood) return null;
  const revised = { ...same, moodSum: same.moodSum - checkIn.previousMood + checkIn.mood };
  return { ...tally, days: tally.days.map((entry) => (entry === same ? revised : entry)) };
}

export interface WeeklySummary {
  week: SummaryWeek;
  checkIns: number;
  /** The mean mood of the week's check-ins (1–5). */
  averageMood: number;
  /** Against the week before; null when there was nothing to compare with. */
  direction: Trend | null;
  /** Days in a row with a check-in, back from the week's Saturday. */
  streak: number;
}

const totals = (days: DayTally[], from: number, to: number) =>
  days
    .filter((entry) => entry.day >= from && entry.day <= to)
    .reduce((sum, entry) => ({ checkIns: sum.checkIns + entry.checkIns, moodSum: sum.moodSum + entry.moodSum }), {
      checkIns: 0,
      moodSum: 0,
    });

/** The week's numbers, or null when there was no check-in that week (then nothing is sent). */
export function summarise(tally: CheckInTally, week: SummaryWeek): WeeklySummary | null {
  const thisWeek = totals(tally.days, week.firstDay, week.lastDay);
  if (thisWeek.checkIns === 0) return null;
  const weekBefore = totals(tally.days, week.firstDay - 7, week.firstDay - 1);
  const averageMood = thisWeek.moodSum / thisWeek.checkIns;
  const direction =
    weekBefore.checkIns === 0 ? null : moodDirection(averageMood, weekBefore.moodSum / weekBefore.checkIns);
  // The kept run answers; when it cannot (a gap and a newer run since), the kept days do.
  const streak =
    streakOnDay(tally.streak, week.lastDay) ??
    streakEndingOn(
      tally.days.filter((entry) => entry.checkIns > 0).map((entry) => entry.day),
      week.lastDay,
    );
  return { week, checkIns: thisWeek.checkIns, averageMood, direction, streak };
}

const dayLabel = (day: number) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long' }).format(
    new Date(`${dateOfDay(day)}T12:00:00Z`),
  );

/** One decimal, as the app's Avg Mood tile shows it. */
export const oneDecimal = (value: number) => (Math.round(value * 10) / 10).toFixed(1);

const comparison: Record<Trend, string> = {
  up: 'a little brighter than the week before',
  flat: 'about the same as the week before',
  down: 'a bit lower than the week before',
};

const closing: Record<Trend | 'first', string> = {
  up: 'It sounds like this week had some lighter moments. It can help to notice what was part of them.',
  flat: 'Whatever the new week brings, Haven is here whenever you want a minute to check in.',
  first: 'Whatever the new week brings, Haven is here whenever you want a minute to check in.',
  down:
    'Some weeks are heavier than others, and that is okay. If it helps, pick one small thing for today, ' +
    'like a short walk or a message to someone you trust.',
};

/** Where to find help in the recipient's country, from the one crisis-resource dataset. */
function helpLines(country: string | null): string[] {
  const list = supportResourcesFor(country);
  const line = (resource: { name: string; action: string; href: string }) =>
    `${resource.name}, ${resource.action.charAt(0).toLowerCase()}${resource.action.slice(1)}` +
    (resource.href.startsWith('https:') ? ` (${resource.href})` : '');
  return [`${list.resources.map(line).join('; ')}.`, list.emergency];
}

/**
 * The e-mail: a neutral subject (nothing a shared inbox would give away), the week's numbers and
 * nothing else of the check-ins (no notes, no quote, no crisis flag), a gentle word that fits the
 * week, where to find help, and how to turn it off.
 */
export function renderWeeklySummaryEmail(input: {
  productName: string;
  appUrl: string;
  summary: WeeklySummary;
  /** The recipient's stop link token (domain/stop-links.ts). */
  stopToken: string;
  /** The recipient's country (ISO 3166-1 alpha-2), when known: its lines; else the directory. */
  country: string | null;
}): RenderedEmail {
  const { productName, summary } = input;
  const progress = appLink(input.appUrl, 'progress');
  const preferences = appLink(input.appUrl, 'email-preferences');
  const stop = stopPageLink(input.appUrl, input.stopToken);
  const help = helpPageLink(input.appUrl);
  const span = `${dayLabel(summary.week.firstDay)} to ${dayLabel(summary.week.lastDay)}`;
  const intro = `Here is a short look back at your week with ${productName} (${span}).`;
  const facts = [
    summary.checkIns === 1 ? 'You checked in once.' : `You checked in ${summary.checkIns} times.`,
    `Your average mood was ${oneDecimal(summary.averageMood)} out of 5${
      summary.direction ? `, ${comparison[summary.direction]}` : ''
    }.`,
    // A run of one day is not a run; a week without one is simply not mentioned.
    ...(summary.streak >= 2 ? [`You checked in ${summary.streak} days in a row, up to Saturday.`] : []),
  ];
  const close = closing[summary.direction ?? 'first'];
  const privacy = `This email carries just these numbers: your notes and messages stay in ${productName}.`;
  const care = [notTherapyLine, ...helpLines(input.country), `More ways to reach someone: ${help}`];
  const why = `You get this because you turned on the weekly summary. Stop it in one click: ${stop} (or choose which emails you get: ${preferences})`;

  const text = [
    'Hi,',
    '',
    intro,
    '',
    ...facts.map((fact) => `- ${fact}`),
    '',
    close,
    '',
    `See your progress: ${progress}`,
    privacy,
    '',
    '--',
    ...care,
    '',
    why,
  ].join('\n');

  const small = 'font-size:12px;color:#6b7280';
  const html = `<!doctype html>
<html lang="en"><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#1f2937;line-height:1.5">
<p>Hi,</p>
<p>${escapeHtml(intro)}</p>
<ul>
${facts.map((fact) => `<li>${escapeHtml(fact)}</li>`).join('\n')}
</ul>
<p>${escapeHtml(close)}</p>
<p><a href="${escapeHtml(progress)}" style="display:inline-block;padding:10px 18px;background:#4f46e5;color:#fff;border-radius:8px;text-decoration:none">See your progress</a></p>
<p style="font-size:13px;color:#6b7280">${escapeHtml(privacy)}</p>
<hr style="border:none;border-top:1px solid #e5e7eb;margin:24px 0">
<p style="${small}">${care
    .slice(0, -1)
    .map((line) => escapeHtml(line))
    .join('<br>')}<br><a href="${escapeHtml(help)}">More ways to reach someone</a></p>
<p style="${small}">You get this because you turned on the weekly summary. <a href="${escapeHtml(stop)}">Stop it in one click</a>, or <a href="${escapeHtml(preferences)}">choose which emails you get</a>.</p>
</body></html>`;

  return {
    subject: `Your week with ${productName}`,
    text,
    html,
    headers: stopHeaders(input.appUrl, input.stopToken),
  };
}
