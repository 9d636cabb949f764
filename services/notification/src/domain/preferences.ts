export interface EmailPreferences {
  marketingEmails: boolean;
  productUpdates: boolean;
  securityNotifications: boolean;
  newsletter: boolean;
  /** Beyond the spec, opt-in: the weekly summary of the user's own check-ins (domain/weekly-summary.ts). */
  weeklySummary: boolean;
}

/** The spec's defaults for a user who never saved preferences; the weekly summary (not in the spec) is off. */
export const defaultEmailPreferences: EmailPreferences = Object.freeze({
  marketingEmails: false,
  productUpdates: true,
  securityNotifications: true,
  newsletter: false,
  weeklySummary: false,
});

export function withDefaults(saved: Partial<EmailPreferences> | null | undefined): EmailPreferences {
  const present = Object.entries(saved ?? {}).filter(([, value]) => value !== undefined);
  return { ...defaultEmailPreferences, ...Object.fromEntries(present) };
}
