export interface EmailPreferences {
  marketingEmails: boolean;
  productUpdates: boolean;
  securityNotifications: boolean;
  newsletter: boolean;
}

/** The spec's defaults for a user who never saved preferences. */
export const defaultEmailPreferences: EmailPreferences = Object.freeze({
  marketingEmails: false,
  productUpdates: true,
  securityNotifications: true,
  newsletter: false,
});

export function withDefaults(saved: Partial<EmailPreferences> | null | undefined): EmailPreferences {
  const present = Object.entries(saved ?? {}).filter(([, value]) => value !== undefined);
  return { ...defaultEmailPreferences, ...Object.fromEntries(present) };
}
