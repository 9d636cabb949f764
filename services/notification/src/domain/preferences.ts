export interface EmailPreferences {
  marketingEmails: boolean;
  productUpdates: boolean;
  securityNotifications: boolean;
  newsletter: boolean;
  /** Opt-in: the weekly summary of the user's own check-ins (domain/weekly-summary.ts). */
  weeklySummary: boolean;
  /** Opt-in: a daily check-in reminder at the hour the user picks (domain/check-in-reminders.ts). */
  checkInReminder: boolean;
}

/** The defaults for a user who never saved preferences: the four switches on, the weekly summary and the reminder off. */
export const defaultEmailPreferences: EmailPreferences = Object.freeze({
  marketingEmails: false,
  productUpdates: true,
  securityNotifications: true,
  newsletter: false,
  weeklySummary: false,
  checkInReminder: false,
});

export function withDefaults(saved: Partial<EmailPreferences> | null | undefined): EmailPreferences {
  const present = Object.entries(saved ?? {}).filter(([, value]) => value !== undefined);
  return { ...defaultEmailPreferences, ...Object.fromEntries(present) };
}

/** The hour on the person's own clock the check-in reminder goes at when they have not picked one: early evening. */
export const defaultReminderHour = 19;

/** Every switch and the reminder's hour, as the preferences page and the export show them. */
export interface EmailChoices extends EmailPreferences {
  reminderHour: number;
}

/** The choices of a saved document (or none), with the defaults filled in, and nothing else. */
export function choicesOf(
  saved: (Partial<EmailPreferences> & { reminderHour?: number | null }) | null | undefined,
): EmailChoices {
  const all = withDefaults(saved);
  const switches = Object.fromEntries(
    (Object.keys(defaultEmailPreferences) as Array<keyof EmailPreferences>).map((key) => [key, all[key]]),
  ) as unknown as EmailPreferences;
  return { ...switches, reminderHour: saved?.reminderHour ?? defaultReminderHour };
}
