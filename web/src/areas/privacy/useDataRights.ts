/** The two data rights as hooks, for every place that offers them (Settings, the e-mail preferences page). */
import { useMutation } from '@apollo/client/react';
import { useCallback, useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { ACCOUNT_DELETED_REDIRECT_MS } from '../../constants';
import { serverMessage } from '../../graphql/errors';
import { DeleteAccountDocument } from '../../graphql/operations.generated';
import { isReauthRequired, reauthNotice, REAUTH_SIGN_IN_PATH, rememberReauth, takeReauth } from '../../lib/reauth';
import { toast } from '../../ui/Toast';
import { downloadExport } from './dataExport';
import {
  DELETE_ACCOUNT_CONFIRMATION,
  exportFailureDescription,
  exportNotices,
  exportSuccessDescription,
  type ExportFile,
  type ExportPlace,
} from './privacyRules';

/** Downloads `file` and says how it went, with the notices of `place`. */
export function useDataExport(place: ExportPlace, file: ExportFile = 'everything') {
  const [exporting, setExporting] = useState(false);
  const exportData = async () => {
    setExporting(true);
    try {
      const fileName = await downloadExport(file);
      toast({ title: exportNotices[place].success, description: exportSuccessDescription(fileName) });
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
 * cleared the session cookie, so the app starts signed out with nothing of the account cached. A sign-in too old
 * for a deletion (REAUTH_REQUIRED) sends the person to sign in again; back on this page, the confirmation is
 * asked again and the deletion finishes.
 */
export function useDeleteAccount() {
  const [deleteAccount, { loading }] = useMutation(DeleteAccountDocument);
  const [deleted, setDeleted] = useState(false);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const confirmAndDelete = useCallback(async () => {
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
      if (isReauthRequired(error)) {
        rememberReauth({ action: 'delete-account', returnTo: pathname, at: Date.now() });
        toast(reauthNotice);
        navigate(REAUTH_SIGN_IN_PATH);
        return;
      }
      toast({
        title: 'Deletion Failed',
        description: serverMessage(error) ?? 'Your account was not deleted. Please try again.',
        variant: 'destructive',
      });
    }
  }, [deleteAccount, navigate, pathname]);

  // Back from signing in again: finish what was started here (the confirmation is asked once more).
  useEffect(() => {
    if (takeReauth('delete-account', pathname)) void confirmAndDelete();
  }, [pathname, confirmAndDelete]);

  return { confirmAndDelete, deleting: loading || deleted };
}
