/** The e-mail preferences page's Export and Delete account buttons (on /email-preferences). */
import { Button } from '../../ui/Button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { DELETE_ACCOUNT_EXPLANATION } from './privacyRules';
import { useDataExport, useDeleteAccount } from './useDataRights';

export function AccountDataActions() {
  const { exportData, exporting } = useDataExport('emailPreferences');
  const { confirmAndDelete, deleting } = useDeleteAccount();
  return (
    <Card aria-labelledby="your-data-title">
      <CardHeader>
        <CardTitle id="your-data-title">Your data</CardTitle>
        <CardDescription>
          Download everything Haven keeps about you as one file, or delete your account.
        </CardDescription>
      </CardHeader>
      <CardContent className="stack-sm">
        <Button variant="outline" block loading={exporting} onClick={() => void exportData()}>
          Export
        </Button>
        <p className="text-muted">{DELETE_ACCOUNT_EXPLANATION}</p>
        <Button variant="destructive" block loading={deleting} onClick={() => void confirmAndDelete()}>
          Delete account
        </Button>
      </CardContent>
    </Card>
  );
}
