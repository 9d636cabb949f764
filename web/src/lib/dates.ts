/** Dates are shown in the user's local format. */
export function formatLocalDate(date: Date): string {
  return date.toLocaleDateString();
}

/** Parses an ISO 8601 string; returns null when it is missing or invalid. */
export function parseIsoDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The browser's IANA time zone, for check-in days and e-mail times; the server falls back to UTC. */
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}
