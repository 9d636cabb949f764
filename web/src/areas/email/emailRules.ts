/** The e-mail area's rules: link tokens, the unsubscribe form, the preference switches. Pure, no DOM. */

/** The token of a link, or null when it is missing or empty. */
export function tokenFrom(search: string): string | null {
  const token = new URLSearchParams(search).get('token');
  return token && token.trim() ? token.trim() : null;
}

/** The unsubscribe form's check: required, then the browser's e-mail shape. */
export function unsubscribeEmailProblem(email: string): { title: string; description: string } | null {
  if (!email.trim()) return { title: 'Email Required', description: 'Please enter your email address.' };
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) {
    return { title: 'Invalid Email', description: 'Please enter a valid email address.' };
  }
  return null;
}

export const preferenceSwitches = [
  {
    key: 'newsletter',
    label: 'Weekly newsletter',
    description: 'A short weekly letter with ideas for looking after yourself.',
  },
  { key: 'productUpdates', label: 'Product updates', description: 'News about features that could help you.' },
  { key: 'marketingEmails', label: 'Marketing emails', description: 'Occasional offers and announcements.' },
  {
    // After the first four (off by default): an e-mail built from the user's own check-ins.
    key: 'weeklySummary',
    label: 'Your week in review',
    description:
      'On Sunday morning, a short email about your week: how many check-ins, your average mood and your days in a row. Numbers only, never your notes.',
  },
  {
    // Off by default: an invitation once a day, never a count of what was missed.
    key: 'checkInReminder',
    label: 'Daily check-in reminder',
    description:
      'One short email a day at the hour you pick, in your time zone, inviting you to check in. Never on a day you already have.',
  },
  {
    key: 'securityNotifications',
    label: 'Security notifications',
    description: 'Sign-ins and changes to your account. Important security and billing emails always arrive.',
  },
] as const;

export type PreferenceKey = (typeof preferenceSwitches)[number]['key'];
export type Preferences = Record<PreferenceKey, boolean>;

/** The request body: every switch as 0 or 1 (the weekly summary and the reminder too). */
export function asZeroOne(preferences: Preferences): Record<PreferenceKey, 0 | 1> {
  return Object.fromEntries(preferenceSwitches.map(({ key }) => [key, preferences[key] ? 1 : 0])) as Record<
    PreferenceKey,
    0 | 1
  >;
}

/** The hours the reminder may go at, as the picker names them (24-hour clock, the person's own). */
export const reminderHours = Array.from({ length: 24 }, (_, hour) => ({
  hour,
  label: `${String(hour).padStart(2, '0')}:00`,
}));
