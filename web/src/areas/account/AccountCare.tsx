/** Settings' account-care forms: names and time zone, a new e-mail address, a new password. */
import { useMutation } from '@apollo/client/react';
import { PASSWORD_MIN_LENGTH } from '../../constants';
import { serverMessage } from '../../graphql/errors';
import {
  ChangePasswordDocument,
  RequestEmailChangeDocument,
  UpdateProfileDocument,
} from '../../graphql/operations.generated';
import { refused, serverFieldErrors, toastRefusal } from '../../lib/serverRefusal';
import { useForm } from '../../lib/useForm';
import { Button } from '../../ui/Button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { TextField } from '../../ui/Field';
import { toast } from '../../ui/Toast';
import { emailRequired, newPasswordProblem } from './authValidation';

/** The browser's own zone, offered first; the list is what this browser knows. */
function timeZoneChoices(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return Array.from(new Set([current, 'UTC', ...known]));
}

export function ProfileCard(props: { firstName: string | null; lastName: string | null; timeZone: string }) {
  const [updateProfile] = useMutation(UpdateProfileDocument);
  const { values, field, pending, onSubmit } = useForm({
    initial: { firstName: props.firstName ?? '', lastName: props.lastName ?? '', timeZone: props.timeZone },
    submit: async (input) => {
      await updateProfile({ variables: { input } });
      toast({ title: 'Profile Updated', description: 'Your details are saved.' });
    },
    failed: refused({ title: 'Update Failed', fallback: 'Please try again.' }),
  });

  return (
    <Card aria-labelledby="profile-title">
      <CardHeader>
        <CardTitle id="profile-title">Your Details</CardTitle>
        <CardDescription>Your time zone decides when your day starts for check-ins and emails.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="stack" noValidate onSubmit={onSubmit} aria-label="Your details">
          <div className="field-row">
            <TextField id="profile-first-name" label="First name" autoComplete="given-name" {...field('firstName')} />
            <TextField id="profile-last-name" label="Last name" autoComplete="family-name" {...field('lastName')} />
          </div>
          <div className="field">
            <label className="label" htmlFor="profile-time-zone">
              Time zone
            </label>
            <select
              id="profile-time-zone"
              className="input"
              value={values.timeZone}
              onChange={field('timeZone').onChange}
            >
              {timeZoneChoices(props.timeZone).map((zone) => (
                <option key={zone} value={zone}>
                  {zone.replace(/_/g, ' ')}
                </option>
              ))}
            </select>
          </div>
          <Button type="submit" block loading={pending}>
            Save Details
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

export function ChangePasswordCard() {
  const [changePassword] = useMutation(ChangePasswordDocument);
  const { field, pending, onSubmit } = useForm({
    initial: { currentPassword: '', newPassword: '' },
    validate: ({ currentPassword, newPassword }) => ({
      currentPassword: currentPassword ? undefined : 'Current password is required',
      newPassword: newPasswordProblem(newPassword),
    }),
    submit: async (input, form) => {
      const { data } = await changePassword({ variables: { input } });
      form.reset();
      toast({ title: 'Password Changed', description: data?.changePassword.message });
    },
    failed: refused({ title: 'Password Not Changed', fallback: 'Please try again.' }),
  });

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
            {...field('currentPassword')}
          />
          <TextField
            id="new-password"
            label="New password"
            type="password"
            autoComplete="new-password"
            placeholder={`Create a password (min ${PASSWORD_MIN_LENGTH} characters)`}
            {...field('newPassword')}
          />
          <Button type="submit" block variant="outline" loading={pending}>
            Change Password
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

export function ChangeEmailCard({ email }: { email: string }) {
  const [requestEmailChange] = useMutation(RequestEmailChangeDocument);
  const { field, pending, onSubmit } = useForm({
    initial: { newEmail: '', currentPassword: '' },
    validate: ({ newEmail }) => {
      const missing = emailRequired(newEmail);
      return missing ? { newEmail: missing } : {};
    },
    submit: async ({ newEmail, currentPassword }, form) => {
      const { data } = await requestEmailChange({
        variables: { input: { newEmail: newEmail.trim(), currentPassword } },
      });
      form.reset();
      toast({ title: 'Check your new inbox', description: data?.requestEmailChange.message });
    },
    // A refusal that names no field (the address is taken) shows beside the new address.
    failed: (error) => {
      toastRefusal('Email Not Changed', error, 'Please try again.');
      const fields = serverFieldErrors<{ newEmail: string; currentPassword: string }>(error, [
        'newEmail',
        'currentPassword',
      ]);
      return Object.keys(fields).length > 0 ? fields : { newEmail: serverMessage(error) ?? 'Please try again.' };
    },
  });

  return (
    <Card aria-labelledby="email-title">
      <CardHeader>
        <CardTitle id="email-title">Email Address</CardTitle>
        <CardDescription>Now {email}. A new address takes effect once you open the link we send to it.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="stack" noValidate onSubmit={onSubmit} aria-label="Change email">
          <TextField id="change-email" label="New email" type="email" autoComplete="email" {...field('newEmail')} />
          <TextField
            id="change-email-password"
            label="Current password"
            type="password"
            autoComplete="current-password"
            {...field('currentPassword')}
          />
          <Button type="submit" block variant="outline" loading={pending}>
            Send Link
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
