/**
 * /email-preferences: the four e-mail switches, the weekly summary's and the daily reminder's with its
 * hour (off by default), Save, the unverified-address banner, and the "Your data" card with
 * Export and Delete account (areas/privacy).
 */
import { useMutation, useQuery } from '@apollo/client/react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { EmailPreferencesPageDocument, UpdateEmailPreferencesDocument } from '../../graphql/operations.generated';
import { usePageTitle } from '../../lib/usePageTitle';
import { Button } from '../../ui/Button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { Label } from '../../ui/Label';
import { Spinner } from '../../ui/Spinner';
import { Switch } from '../../ui/Switch';
import { toast } from '../../ui/Toast';
import { AccountDataActions } from '../privacy/AccountDataActions';
import { asZeroOne, preferenceSwitches, reminderHours, type Preferences } from './emailRules';

export function EmailPreferencesPage() {
  usePageTitle('Email Preferences');
  const { data, loading, refetch } = useQuery(EmailPreferencesPageDocument, { fetchPolicy: 'network-only' });
  const [save, { loading: saving }] = useMutation(UpdateEmailPreferencesDocument);
  const me = data?.me;
  const [draft, setDraft] = useState<Preferences | null>(null);
  // Set with the switches from the saved choices, so the page never holds a default of its own.
  const [reminderHour, setReminderHour] = useState<number | null>(null);

  useEffect(() => {
    if (me) {
      const { reminderHour: savedHour, ...switches } = me.emailPreferences;
      setDraft(Object.fromEntries(preferenceSwitches.map(({ key }) => [key, switches[key]])) as Preferences);
      setReminderHour(savedHour);
    }
  }, [me]);

  const onSave = async () => {
    if (!me || !draft || reminderHour === null) return;
    try {
      await save({ variables: { input: { userId: me.id, ...asZeroOne(draft), reminderHour } } });
      await refetch();
      toast({ title: 'Preferences Updated', description: 'Your email preferences have been saved.' });
    } catch {
      toast({
        title: 'Error',
        description: 'Failed to save email preferences. Please try again.',
        variant: 'destructive',
      });
    }
  };

  return (
    <div className="page stack">
      <Link to="/settings" className="text-muted">
        ← Back to Settings
      </Link>
      <header className="page__header">
        <h1 className="page__title">Email Preferences</h1>
        <p className="text-muted">Choose which emails you would like to receive.</p>
      </header>

      {me && !me.emailVerified && (
        <div className="callout" role="alert">
          Your email address is not verified. Please check your inbox for a verification email.
        </div>
      )}

      <Card aria-labelledby="email-switches-title">
        <CardHeader>
          <CardTitle id="email-switches-title">Emails</CardTitle>
          <CardDescription>Security and billing emails about your account always arrive.</CardDescription>
        </CardHeader>
        <CardContent className="stack">
          {loading || !draft ? (
            <Spinner />
          ) : (
            preferenceSwitches.map(({ key, label, description }) => (
              <div className="stack" key={key}>
                <div className="setting-row">
                  <div className="setting-row__label">
                    <Label htmlFor={`pref-${key}`}>{label}</Label>
                    <p className="text-muted">{description}</p>
                  </div>
                  <Switch
                    id={`pref-${key}`}
                    checked={draft[key]}
                    onCheckedChange={(checked) => setDraft({ ...draft, [key]: checked })}
                  />
                </div>
                {key === 'checkInReminder' && draft.checkInReminder && (
                  <div className="setting-row">
                    <Label htmlFor="pref-reminder-hour">Remind me at</Label>
                    <select
                      id="pref-reminder-hour"
                      className="input"
                      value={reminderHour ?? undefined}
                      onChange={(event) => setReminderHour(Number(event.target.value))}
                    >
                      {reminderHours.map(({ hour, label: hourLabel }) => (
                        <option key={hour} value={hour}>
                          {hourLabel}
                        </option>
                      ))}
                    </select>
                  </div>
                )}
              </div>
            ))
          )}
          <Button block onClick={() => void onSave()} disabled={!draft || saving}>
            {saving ? 'Saving...' : 'Save Preferences'}
          </Button>
        </CardContent>
      </Card>

      <AccountDataActions />
    </div>
  );
}
