import { dateOfDay } from '@haven/domain';
import {
  reminderDayAt,
  reminderHourProblem,
  reminderKey,
  renderCheckInReminderEmail,
} from '../src/domain/check-in-reminders';

const at = (iso: string) => new Date(iso);

describe('when the check-in reminder is due', () => {
  it('is the hour the person picked on their own clock, summer or winter, and belongs to their local day', () => {
    // New York is UTC−4 in July and UTC−5 in January.
    expect(dateOfDay(reminderDayAt(at('2026-07-14T23:10:00Z'), 'America/New_York', 19)!)).toBe('2026-07-14');
    expect(reminderDayAt(at('2026-07-14T22:59:00Z'), 'America/New_York', 19)).toBeNull();
    expect(dateOfDay(reminderDayAt(at('2026-01-15T00:30:00Z'), 'America/New_York', 19)!)).toBe('2026-01-14');
    expect(reminderDayAt(at('2026-01-14T23:30:00Z'), 'America/New_York', 19)).toBeNull();
    // Tokyo's 07:00 is the evening before in UTC, and already the next day there.
    expect(dateOfDay(reminderDayAt(at('2026-07-14T22:05:00Z'), 'Asia/Tokyo', 7)!)).toBe('2026-07-15');
    expect(dateOfDay(reminderDayAt(at('2026-07-14T00:00:00Z'), 'UTC', 0)!)).toBe('2026-07-14');
  });

  it('is keyed once per person and local day', () => {
    const day = reminderDayAt(at('2026-07-14T23:10:00Z'), 'America/New_York', 19)!;
    expect(reminderKey('user-1', day)).toBe('check-in-reminder:user-1:2026-07-14');
  });

  it('takes a whole hour from 0 to 23 and nothing else', () => {
    for (const hour of [0, 7, 23]) expect(reminderHourProblem(hour)).toBeNull();
    for (const wrong of [-1, 24, 7.5, '7', null, undefined, Number.NaN]) {
      expect(reminderHourProblem(wrong)).toBe('reminderHour must be a whole hour from 0 to 23');
    }
  });
});

describe('the reminder e-mail', () => {
  const email = renderCheckInReminderEmail({
    productName: 'Haven',
    appUrl: 'https://haven.example/',
    hour: 7,
    stopToken: 'dXNlci0x.check-in-reminder.mac',
  });

  it('invites, once, without counting anything that was missed', () => {
    expect(email.subject).toBe('A minute for you, from Haven');
    expect(email.subject).not.toMatch(/mood|mental|feel|therapy|crisis|check-?in|remind/i);
    expect(email.text).toContain('Check in: https://haven.example/sliders');
    expect(email.text).toContain('If today is not the day, that is fine too.');
    for (const part of [email.text, email.html]) {
      expect(part).not.toMatch(/missed|streak|in a row|haven.t checked|last check|days? (ago|since)|you should/i);
    }
  });

  it('says why it came, stops in one click, and says where help is', () => {
    expect(email.text).toContain(
      'You asked for this reminder at 07:00. Stop it in one click: https://haven.example/stop-emails?token=dXNlci0x.check-in-reminder.mac',
    );
    expect(email.html).toContain('href="https://haven.example/stop-emails?token=dXNlci0x.check-in-reminder.mac"');
    expect(email.text).toContain('You get this email because you turned on the daily check-in reminder.');
    expect(email.text).toContain('https://haven.example/email-preferences');
    expect(email.text).toContain('https://haven.example/help');
    expect(email.headers).toEqual({
      'List-Unsubscribe':
        '<https://haven.example/hooks/notification/emails/one-click?token=dXNlci0x.check-in-reminder.mac>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(email.text).toContain('Haven is a wellness companion, not therapy.');
  });
});
