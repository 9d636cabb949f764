/**
 * Settings' Data & Privacy card: "Export Your Data", the privacy note, the two privacy switches the help
 * text promises (insights from the history, keeping check-in notes) and "Delete account". Open to every
 * signed-in user, whatever the subscription: data rights are never premium.
 */
import { useMutation, useQuery } from '@apollo/client/react';
import { BRAND } from '../../brand';
import { serverMessage } from '../../graphql/errors';
import { PrivacySettingsDocument, UpdatePrivacySettingsDocument } from '../../graphql/operations.generated';
import { Button } from '../../ui/Button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { Label } from '../../ui/Label';
import { Switch } from '../../ui/Switch';
import { toast } from '../../ui/Toast';
import { DELETE_ACCOUNT_EXPLANATION, privacySwitches, privacySwitchNotice, type PrivacySwitch } from './privacyRules';
import { useSession } from '../../gating/useSession';
import { useDataExport, useDeleteAccount } from './useDataRights';

export function DataPrivacyCard() {
  const session = useSession();
  const subscribed = session.status === 'signedIn' && session.hasActiveSubscription;
  const checkInsExport = useDataExport('settings', 'checkIns');
  const everythingExport = useDataExport('settings', 'everything');
  const { confirmAndDelete, deleting } = useDeleteAccount();
  return (
    <Card aria-labelledby="data-privacy-title">
      <CardHeader>
        <CardTitle id="data-privacy-title">Data & Privacy</CardTitle>
        <CardDescription>
          Your check-ins are yours. {BRAND.name} never sells your data and never sends your name or email to the AI
          provider. Take a copy of everything we keep, choose what we keep, or delete it all.
        </CardDescription>
      </CardHeader>
      <CardContent className="stack">
        {subscribed && (
          <Button
            variant="outline"
            block
            loading={checkInsExport.exporting}
            onClick={() => void checkInsExport.exportData()}
          >
            Export Your Data
          </Button>
        )}
        <div className="stack-sm">
          <p className="text-muted">
            {subscribed
              ? 'Export Your Data saves your check-ins and their messages as a spreadsheet (CSV). For a copy of everything we keep, in one file:'
              : 'A copy of everything we keep about you, in one file:'}
          </p>
          <Button
            variant="outline"
            block
            loading={everythingExport.exporting}
            onClick={() => void everythingExport.exportData()}
          >
            Export everything (JSON)
          </Button>
        </div>
        <PrivacySwitches />
        <div className="stack-sm">
          <p className="text-muted">{DELETE_ACCOUNT_EXPLANATION}</p>
          <Button variant="destructive" block loading={deleting} onClick={() => void confirmAndDelete()}>
            Delete account
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

function PrivacySwitches() {
  const { data } = useQuery(PrivacySettingsDocument);
  const [update, { loading: saving }] = useMutation(UpdatePrivacySettingsDocument, {
    refetchQueries: [PrivacySettingsDocument],
    awaitRefetchQueries: true,
  });
  const settings = data?.me?.privacySettings;
  const onChange = async (key: PrivacySwitch, on: boolean) => {
    try {
      await update({ variables: { input: { [key]: on } } });
      toast(privacySwitchNotice(key, on));
    } catch (error) {
      toast({
        title: 'Setting not saved',
        description: serverMessage(error) ?? 'Your privacy setting was not changed. Please try again.',
        variant: 'destructive',
      });
    }
  };
  return (
    <div className="stack">
      {privacySwitches.map(({ key, label, description }) => (
        <div className="setting-row" key={key}>
          <div className="setting-row__label">
            <Label htmlFor={`privacy-${key}`}>{label}</Label>
            <p className="text-muted">{description}</p>
          </div>
          <Switch
            id={`privacy-${key}`}
            checked={settings?.[key] ?? true}
            disabled={!settings || saving}
            onCheckedChange={(checked) => void onChange(key, checked)}
          />
        </div>
      ))}
    </div>
  );
}
