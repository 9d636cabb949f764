/**
 * The daily check-in reminder (opt-in): when it is due, and the e-mail. It invites and never counts what was
 * missed: no streak, no "you haven't checked in for n days". Pure, no I/O: every "now" and time zone is passed in.
 */
import { dateOfDay, dayNumber } from '@haven/domain';
import { appLink, careFooterHtml, careFooterText, escapeHtml, type RenderedEmail } from './email-parts';
import { stopHeaders, stopPageLink } from './stop-links';
import { localHour } from './weekly-summary';

/** A reminder hour is a whole hour of the day, 0 to 23, or the reason it is not. */
export function reminderHourProblem(value: unknown): string | null {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 23
    ? null
    : 'reminderHour must be a whole hour from 0 to 23';
}

/**
 * The local day a reminder sent at `now` belongs to, or null outside the person's chosen hour. Passes come
 * every few minutes, so each day's hour sees several; the delivery log lets one of them send.
 */
export function reminderDayAt(now: Date, timeZone: string, hour: number): number | null {
  return localHour(now, timeZone) === hour ? dayNumber(now, timeZone) : null;
}

/** The delivery log's key of one person's reminder on one local day: once a day, whichever replica sends it. */
export const reminderKey = (userId: string, day: number) => `check-in-reminder:${userId}:${dateOfDay(day)}`;

/** The hour as the reminder names it, on a 24-hour clock ("19:00"). */
export const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/** The e-mail: a subject that gives nothing away in a shared inbox, one invitation, one link, the way to stop it. */
export function renderCheckInReminderEmail(input: {
  productName: string;
  appUrl: string;
  hour: number;
  /** The recipient's stop link token (domain/stop-links.ts). */
  stopToken: string;
}): RenderedEmail {
  const { productName } = input;
  const checkIn = appLink(input.appUrl, 'sliders');
  const stop = stopPageLink(input.appUrl, input.stopToken);
  const invitation = `If you have a minute, ${productName} is here. Rating how you feel takes about a minute, and you get a few words written for this moment.`;
  const noPressure = 'If today is not the day, that is fine too. This email comes once a day at most.';
  const asked = `You asked for this reminder at ${hourLabel(input.hour)}. Stop it in one click: ${stop}`;

  const text = [
    'Hi,',
    '',
    invitation,
    '',
    `Check in: ${checkIn}`,
    '',
    noPressure,
    '',
    '--',
    asked,
    careFooterText(productName, input.appUrl, 'check-in-reminder'),
  ].join('\n');

  const small = 'font-size:12px;color:#6b7280';
  const html = `<!doctype html>
<html lang="en"><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#1f2937;line-height:1.5">
<p>Hi,</p>
<p>${escapeHtml(invitation)}</p>
<p><a href="${escapeHtml(checkIn)}" style="display:inline-block;padding:10px 18px;background:#4f46e5;color:#fff;border-radius:8px;text-decoration:none">Check in</a></p>
<p>${escapeHtml(noPressure)}</p>
<hr style="border:none;border-top:1px solid #e5e7eb;margin:24px 0">
<p style="${small}">You asked for this reminder at ${hourLabel(input.hour)}. <a href="${escapeHtml(stop)}">Stop it in one click</a>.</p>
${careFooterHtml(productName, input.appUrl, 'check-in-reminder')}
</body></html>`;

  return {
    subject: `A minute for you, from ${productName}`,
    text,
    html,
    headers: stopHeaders(input.appUrl, input.stopToken),
  };
}
