/** Settings' account-care forms: names and time zone, a new e-mail address, a new password. */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { useMutation } from '@apollo/client/react';
import { PASSWORD_MIN_LENGTH } from '../../constants';
import { fieldErrors, serverMessage } from '../../graphql/errors';
import {
  ChangePasswordDocument,
  RequestEmailChangeDocument,
  UpdateProfileDocument,
} from '../../graphql/operations.generated';
import { Button } from '../../ui/Button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { TextField } from '../../ui/Field';
import { toast } from '../../ui/Toast';

/** The browser's own zone, offered first; the list is what this browser knows. */
function timeZoneChoices(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return Array.from(new Set([current, 'UTC', ...known]));
}

const fieldOf = (errors: Record<string, string>, name: string) => errors[`input.${name}`] ?? errors[name];

export function ProfileCard(props: { firstName: string | null; lastName: string | null; timeZone: string }) {
  const [updateProfile, { loading }] = useMutation(UpdateProfileDocument);
  const [firstName, setFirstName] = useState(props.firstName ?? '');
  const [lastName, setLastName] = useState(props.lastName ?? '');
  const [timeZone, setTimeZone] = useState(props.timeZone);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    try {
      await updateProfile({ variables: { input: { firstName, lastName, timeZone } } });
      setErrors({});
      toast({ title: 'Profile Updated', description: 'Your details are saved.' });
    } catch (error) {
      setErrors(fieldErrors(error));
      toast({
        title: 'Update Failed',
        description: serverMessage(error) ?? 'Please try again.',
        variant: 'destructive',
      });
    }
  };

  return (
    <Card aria-labelledby="profile-title">
      <CardHeader>
        <CardTitle id="profile-title">Your Details</CardTitle>
        <CardDescription>Your time zone decides when your day starts for check-ins and emails.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="stack" noValidate onSubmit={onSubmit} aria-label="Your details">
          <div className="field-row">
            <TextField
              id="profile-first-name"
              label="First name"
              autoComplete="given-name"
              value={firstName}
              error={fieldOf(errors, 'firstName')}
              onChange={(e) => setFirstName(e.target.value)}
            />
            <TextField
              id="profile-last-name"
              label="Last name"
              autoComplete="family-name"
              value={lastName}
              error={fieldOf(errors, 'lastName')}
              onChange={(e) => setLastName(e.target.value)}
            />
          </div>
          <div className="field">
            <label className="label" htmlFor="profile-time-zone">
              Time zone
            </label>
            <select
              id="profile-time-zone"
              className="input"
              value={timeZone}
              onChange={(e) => setTimeZone(e.target.value)}
            >
              {timeZoneChoices(props.timeZone).map((zone) => (
                <option key={zone} value={zone}>
                  {zone.replace(/_/g, ' ')}
                </option>
              ))}
            </select>
          </div>
          <Button type="submit" block loading={loading}>
            Save Details
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

export function ChangePasswordCard() {
  const [changePassword, { loading }] = useMutation(ChangePasswordDocument);
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const local: Record<string, string> = {};
    if (!currentPassword) local.currentPassword = 'Current password is required';
    if (newPassword.length < PASSWORD_MIN_LENGTH) {
      local.newPassword = `Password must be at least ${PASSWORD_MIN_LENGTH} characters`;
    }
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    try {
      const { data } = await changePassword({ variables: { input: { currentPassword, newPassword } } });
      setCurrentPassword('');
      setNewPassword('');
      toast({ title: 'Password Changed', description: data?.changePassword.message });
    } catch (error) {
      setErrors(fieldErrors(error));
      toast({
        title: 'Password Not Changed',
        description: serverMessage(error) ?? 'Please try again.',
        variant: 'destructive',
      });
    }
  };

  return (
    <Card aria-labelledby="password-title">
      <CardHeader>
        <CardTitle id="password-title">Password</CardTitle>
        <CardDescription>Changing it signs out your other devices.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="stack" noValidate onSubmit={onSubmit} aria-label="Change password">
          <TextField
            id="current-password"
            label="Current password"
            type="password"
            autoComplete="current-password"
            value={currentPassword}
            error={fieldOf(errors, 'currentPassword')}
            onChange={(e) => setCurrentPassword(e.target.value)}
          />
          <TextField
            id="new-password"
            label="New password"
            type="password"
            autoComplete="new-password"
            placeholder={`Create a password (min ${PASSWORD_MIN_LENGTH} characters)`}
            value={newPassword}
            error={fieldOf(errors, 'newPassword')}
            onChange={(e) => setNewPassword(e.target.value)}
          />
          <Button type="submit" block variant="outline" loading={loading}>
            Change Password
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

export function ChangeEmailCard({ email }: { email: string }) {
  const [requestEmailChange, { loading }] = useMutation(RequestEmailChangeDocument);
  const [newEmail, setNewEmail] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (newEmail.trim() === '') {
      setErrors({ newEmail: 'Email is required' });
      return;
    }
    try {
      const { data } = await requestEmailChange({
        variables: { input: { newEmail: newEmail.trim(), currentPassword } },
      });
      setErrors({});
      setNewEmail('');
      setCurrentPassword('');
      toast({ title: 'Check your new inbox', description: data?.requestEmailChange.message });
    } catch (error) {
      const fields = fieldErrors(error);
      setErrors(Object.keys(fields).length > 0 ? fields : { newEmail: serverMessage(error) ?? 'Please try again.' });
      toast({
        title: 'Email Not Changed',
        description: serverMessage(error) ?? 'Please try again.',
        variant: 'destructive',
      });
    }
  };

  return (
    <Card aria-labelledby="email-title">
      <CardHeader>
        <CardTitle id="email-title">Email Address</CardTitle>
        <CardDescription>Now {email}. A new address takes effect once you open the link we send to it.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="stack" noValidate onSubmit={onSubmit} aria-label="Change email">
          <TextField
            id="change-email"
            label="New email"
            type="email"
            autoComplete="email"
            value={newEmail}
            error={fieldOf(errors, 'newEmail')}
            onChange={(e) => setNewEmail(e.target.value)}
          />
          <TextField
            id="change-email-password"
            label="Current password"
            type="password"
            autoComplete="current-password"
            value={currentPassword}
            error={fieldOf(errors, 'currentPassword')}
            onChange={(e) => setCurrentPassword(e.target.value)}
          />
          <Button type="submit" block variant="outline" loading={loading}>
            Send Link
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
