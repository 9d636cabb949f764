/** The two data rights as hooks, for every place that offers them (Settings, the e-mail preferences page). */
import { useMutation } from '@apollo/client/react';
import { useState } from 'react';
import { ACCOUNT_DELETED_REDIRECT_MS } from '../../constants';
import { serverMessage } from '../../graphql/errors';
import { DeleteAccountDocument } from '../../graphql/operations.generated';
import { toast } from '../../ui/Toast';
import { downloadDataExport } from './dataExport';
import {
  DELETE_ACCOUNT_CONFIRMATION,
  exportFailureDescription,
  exportNotices,
  exportSuccessDescription,
  type ExportPlace,
} from './privacyRules';

/** Downloads the JSON export and says how it went, with the notices of `place`. */
export function useDataExport(place: ExportPlace) {
  const [exporting, setExporting] = useState(false);
  const exportData = async () => {
    setExporting(true);
    try {
      await downloadDataExport();
      toast({ title: exportNotices[place].success, description: exportSuccessDescription });
    } catch (error) {
      toast({
        title: exportNotices[place].failure,
        description: exportFailureDescription(error),
        variant: 'destructive',
      });
    } finally {
      setExporting(false);
    }
  };
  return { exportData, exporting };
}

/**
 * Asks the browser's confirmation, deletes the account, says so, and after 2 s loads `/` afresh: the server
 * cleared the session cookie, so the app starts signed out with nothing of the account cached.
 */
export function useDeleteAccount() {
  const [deleteAccount, { loading }] = useMutation(DeleteAccountDocument);
  const [deleted, setDeleted] = useState(false);
  const confirmAndDelete = async () => {
    if (!window.confirm(DELETE_ACCOUNT_CONFIRMATION)) return;
    try {
      const { data } = await deleteAccount();
      setDeleted(true);
      toast({
        title: 'Account Deleted',
        description: data?.deleteAccount.message ?? 'Your account is closed and your data is being erased.',
      });
      window.setTimeout(() => window.location.assign('/'), ACCOUNT_DELETED_REDIRECT_MS);
    } catch (error) {
      toast({
        title: 'Deletion Failed',
        description: serverMessage(error) ?? 'Your account was not deleted. Please try again.',
        variant: 'destructive',
      });
    }
  };
  return { confirmAndDelete, deleting: loading || deleted };
}
