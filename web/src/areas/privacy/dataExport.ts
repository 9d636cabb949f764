import { DATA_EXPORT_FILE_NAME, DATA_EXPORT_URL, requestErrorMessage } from './privacyRules';

/**
 * Downloads the JSON export as a file with the fixed name: the request carries the session cookie; a
 * non-2xx answer throws the spec's "status: body" error.
 */
export async function downloadDataExport(): Promise<void> {
  const response = await fetch(DATA_EXPORT_URL, { credentials: 'include', headers: { accept: 'application/json' } });
  if (!response.ok) {
    throw new Error(requestErrorMessage(response.status, await response.text(), response.statusText));
  }
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = DATA_EXPORT_FILE_NAME;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // After the click has handed the file to the browser.
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}
