/**
 * Data rights in the web app: the export's address and file name, the deletion's confirmation, and the
 * texts of each place that offers them. Pure, so they are tested without a browser.
 */

/** The JSON export of everything Haven keeps about the user (one federated query, served as a file). */
export const DATA_EXPORT_URL = '/api/user/data-export';
/** The export's fixed file name; the server names the attachment the same. */
export const DATA_EXPORT_FILE_NAME = 'haven-data-export.json';

/**
 * The two exports: everything kept, as JSON (every place, every signed-in user: a right, never premium), and
 * Settings' check-ins with their messages as CSV (a Premium feature; the server names the file by the day).
 */
export type ExportFile = 'everything' | 'checkIns';

export const exportFiles: Record<ExportFile, { url: string; accept: string; fallbackName: string }> = {
  everything: { url: DATA_EXPORT_URL, accept: 'application/json', fallbackName: DATA_EXPORT_FILE_NAME },
  checkIns: { url: '/api/user/export', accept: 'text/csv', fallbackName: 'haven-data.csv' },
};

/** The file name the server gave the attachment (`Content-Disposition`), else `fallback`. */
export function attachmentName(contentDisposition: string | null, fallback: string): string {
  const name = /filename="([^"]+)"/.exec(contentDisposition ?? '')?.[1];
  return name && !/[\\/]/.test(name) ? name : fallback;
}

/** The browser confirmation before an account is deleted. */
export const DELETE_ACCOUNT_CONFIRMATION =
  'Are you sure you want to delete your account? This action cannot be undone and will remove all your data permanently.';

/** What deleting does, in the order it happens (said beside the button, before anyone presses it). */
export const DELETE_ACCOUNT_EXPLANATION =
  'Deleting your account cancels your subscription first, so you are not charged again, then signs you out everywhere and erases your check-ins, quotes, preferences and email history from every part of Haven. This cannot be undone.';

/**
 * Where an export is started decides its notice: Settings says "Export Complete" /
 * "Export Failed", the preferences page "Data Export Complete" / "Export Failed".
 */
export type ExportPlace = 'settings' | 'emailPreferences';

export const exportNotices: Record<ExportPlace, { success: string; failure: string }> = {
  settings: { success: 'Export Complete', failure: 'Export Failed' },
  emailPreferences: { success: 'Data Export Complete', failure: 'Export Failed' },
};

export const exportSuccessDescription = (fileName: string) => `Your data was saved as ${fileName}.`;

/** The generic request error: the status code, a colon and a space, then the body (or the status text). */
export function requestErrorMessage(status: number, bodyText: string, statusText: string): string {
  return `${status}: ${bodyText.trim() || statusText}`;
}

/** What a failed export tells the person: the server's own words when it gave some, else a kind fallback. */
export function exportFailureDescription(error: unknown): string {
  const raw = error instanceof Error ? error.message : '';
  const body = raw.replace(/^\d{3}: /, '');
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    if (typeof parsed.message === 'string' && parsed.message.trim()) return parsed.message;
  } catch {
    // not JSON
  }
  return 'Export failed. Please check your connection and try again.';
}

export type PrivacySwitch = 'allowInsights' | 'keepNotes';

export const privacySwitches: Array<{ key: PrivacySwitch; label: string; description: string }> = [
  {
    key: 'allowInsights',
    label: 'Insights from your history',
    description:
      'Haven looks at your last two weeks of check-ins to write weekly summaries and notice patterns. Turn this off and no insights are worked out or shown.',
  },
  {
    key: 'keepNotes',
    label: 'Keep check-in notes',
    description:
      'Notes you write with a check-in are saved with it. Turn this off and the notes box is hidden: nothing you write there is sent or saved. Notes you saved before stay until you delete your account.',
  },
];

/** The toast after a switch was saved. */
export function privacySwitchNotice(key: PrivacySwitch, on: boolean): { title: string; description: string } {
  if (key === 'allowInsights') {
    return on
      ? { title: 'Insights on', description: 'Haven will look for patterns in your recent check-ins.' }
      : { title: 'Insights off', description: 'No insights will be worked out from your check-ins.' };
  }
  return on
    ? { title: 'Notes on', description: 'Notes you write with a check-in will be saved with it.' }
    : { title: 'Notes off', description: 'New check-ins will not save notes.' };
}

/** What the check-in page says instead of the notes box when notes are kept off the server. */
export const NOTES_OFF_MESSAGE =
  'Notes are not kept: you turned this off in Settings, under Data & Privacy. Nothing you write is sent or saved.';
