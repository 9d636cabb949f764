import {
  attachmentName,
  DATA_EXPORT_FILE_NAME,
  DELETE_ACCOUNT_CONFIRMATION,
  exportFailureDescription,
  exportNotices,
  privacySwitchNotice,
  requestErrorMessage,
} from './privacyRules';

describe('data rights in the web app', () => {
  it('asks the spec’s confirmation, word for word, and saves the export under one name', () => {
    expect(DELETE_ACCOUNT_CONFIRMATION).toBe(
      'Are you sure you want to delete your account? This action cannot be undone and will remove all your data permanently.',
    );
    expect(DATA_EXPORT_FILE_NAME).toBe('haven-data-export.json');
  });

  it('saves a file under the name the server gave it, never a path, and falls back to the known name', () => {
    expect(attachmentName('attachment; filename="haven-data-2026-11-27.csv"', 'haven-data.csv')).toBe(
      'haven-data-2026-11-27.csv',
    );
    expect(attachmentName(null, DATA_EXPORT_FILE_NAME)).toBe('haven-data-export.json');
    expect(attachmentName('attachment', 'haven-data.csv')).toBe('haven-data.csv');
    expect(attachmentName('attachment; filename="../../.bashrc"', 'haven-data.csv')).toBe('haven-data.csv');
  });

  it('uses each document’s notices in its own place', () => {
    expect(exportNotices.settings).toEqual({ success: 'Export Complete', failure: 'Export Failed' });
    expect(exportNotices.emailPreferences).toEqual({ success: 'Data Export Complete', failure: 'Export Failed' });
  });

  it('reads a failed export as the spec’s request error, showing the server’s message when there is one', () => {
    const withMessage = new Error(requestErrorMessage(401, '{"message":"Not signed in"}', 'Unauthorized'));
    expect(withMessage.message).toBe('401: {"message":"Not signed in"}');
    expect(exportFailureDescription(withMessage)).toBe('Not signed in');
    expect(requestErrorMessage(503, '', 'Service Unavailable')).toBe('503: Service Unavailable');
    expect(exportFailureDescription(new Error('503: Service Unavailable'))).toMatch(/try again/);
    expect(exportFailureDescription(new TypeError('Failed to fetch'))).toMatch(/connection/);
  });

  it('says what each privacy switch now does', () => {
    expect(privacySwitchNotice('allowInsights', false).title).toBe('Insights off');
    expect(privacySwitchNotice('keepNotes', false).description).toMatch(/not save notes/);
    expect(privacySwitchNotice('keepNotes', true).title).toBe('Notes on');
  });
});
