import { attachmentName, exportFiles, requestErrorMessage, type ExportFile } from './privacyRules';

/**
 * Downloads one of the exports as a file and answers its name: the request carries the session cookie; a
 * non-2xx answer throws a "status: body" error.
 */
export async function downloadExport(file: ExportFile): Promise<string> {
  const { url, accept, fallbackName } = exportFiles[file];
  const response = await fetch(url, { credentials: 'include', headers: { accept } });
  if (!response.ok) {
    throw new Error(requestErrorMessage(response.status, await response.text(), response.statusText));
  }
  const fileName = attachmentName(response.headers.get('content-disposition'), fallbackName);
  const blob = await response.blob();
  const objectUrl = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = objectUrl;
    link.download = fileName;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // After the click has handed the file to the browser.
    setTimeout(() => URL.revokeObjectURL(objectUrl), 1000);
  }
  return fileName;
}
