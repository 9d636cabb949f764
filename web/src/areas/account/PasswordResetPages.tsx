/**
 * /forgot-password: asks for the address and says the same thing whether or not it has an account.
 * /reset-password?token=…: the e-mailed link; a new password, then sign in with it.
 */
import { useState } from 'react';
import { useMutation } from '@apollo/client/react';
import { Link, useSearchParams } from 'react-router-dom';
import { PASSWORD_MIN_LENGTH } from '../../constants';
import { serverMessage } from '../../graphql/errors';
import { RequestPasswordResetDocument, ResetPasswordDocument } from '../../graphql/operations.generated';
import { refused, serverFieldErrors, toastRefusal } from '../../lib/serverRefusal';
import { useForm } from '../../lib/useForm';
import { usePageTitle } from '../../lib/usePageTitle';
import { Button } from '../../ui/Button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { TextField } from '../../ui/Field';
import { toast } from '../../ui/Toast';
import { emailRequired, newPasswordProblem } from './authValidation';

function AuthCard({ title, description, children }: { title: string; description: string; children: React.ReactNode }) {
  return (
    <main className="auth">
      <div className="auth__inner">
        <Card>
          <CardHeader>
            <CardTitle as="h1">{title}</CardTitle>
            <CardDescription>{description}</CardDescription>
          </CardHeader>
          <CardContent className="stack">{children}</CardContent>
        </Card>
      </div>
    </main>
  );
}

export function ForgotPasswordPage() {
  usePageTitle('Forgot Password');
  const [requestReset] = useMutation(RequestPasswordResetDocument);
  const [sent, setSent] = useState<string | null>(null);
  const { field, pending, onSubmit } = useForm({
    initial: { email: '' },
    validate: ({ email }) => ({ email: emailRequired(email) }),
    submit: async ({ email }) => {
      const { data } = await requestReset({ variables: { email: email.trim() } });
      setSent(data?.requestPasswordReset.message ?? '');
    },
    failed: refused({ title: 'Could not send the link', fallback: 'Please check your connection and try again.' }),
  });

  if (sent !== null) {
    return (
      <AuthCard title="Check your inbox" description={sent}>
        <Link className="btn btn--outline btn--md btn--block" to="/auth">
          Back to Sign In
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Forgot your password?"
      description="Enter your email and we'll send you a link to choose a new one."
    >
      <form className="stack" noValidate onSubmit={onSubmit} aria-label="Forgot password">
        <TextField
          id="forgot-email"
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          {...field('email')}
        />
        <Button type="submit" block loading={pending}>
          Send Reset Link
        </Button>
      </form>
      <Link to="/auth">Back to Sign In</Link>
    </AuthCard>
  );
}

export function ResetPasswordPage() {
  usePageTitle('Reset Password');
  const [params] = useSearchParams();
  const token = params.get('token');
  const [resetPassword] = useMutation(ResetPasswordDocument);
  const [done, setDone] = useState<string | null>(null);
  const [linkProblem, setLinkProblem] = useState<string | null>(token ? null : 'Invalid reset link');
  const { field, pending, onSubmit } = useForm({
    initial: { newPassword: '' },
    validate: ({ newPassword }) => ({ newPassword: newPasswordProblem(newPassword) }),
    submit: async ({ newPassword }) => {
      const { data } = await resetPassword({ variables: { input: { token, newPassword } } });
      setDone(data?.resetPassword.message ?? '');
      toast({ title: 'Password Reset', description: data?.resetPassword.message });
    },
    // A spent or unknown token ends the form: the page says so and offers a new link.
    failed: (failure) => {
      toastRefusal('Reset Failed', failure, 'Please check your connection and try again.');
      const fields = serverFieldErrors<{ token: string; newPassword: string }>(failure, ['token', 'newPassword']);
      if (fields.token) {
        setLinkProblem(serverMessage(failure) ?? 'Invalid reset link');
        return {};
      }
      return { newPassword: fields.newPassword ?? serverMessage(failure) };
    },
  });

  if (done !== null) {
    return (
      <AuthCard title="Password Reset" description={done}>
        <Link className="btn btn--primary btn--md btn--block" to="/auth">
          Sign In
        </Link>
      </AuthCard>
    );
  }
  if (linkProblem !== null) {
    return (
      <AuthCard title="Reset Failed" description={linkProblem}>
        <Link className="btn btn--outline btn--md btn--block" to="/forgot-password">
          Ask for a new link
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Choose a new password" description="Your other devices will be signed out.">
      <form className="stack" noValidate onSubmit={onSubmit} aria-label="Reset password">
        <TextField
          id="reset-password"
          label="New password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          required
          minLength={PASSWORD_MIN_LENGTH}
          placeholder={`Create a password (min ${PASSWORD_MIN_LENGTH} characters)`}
          {...field('newPassword')}
        />
        <Button type="submit" block loading={pending}>
          Set New Password
        </Button>
      </form>
    </AuthCard>
  );
}
