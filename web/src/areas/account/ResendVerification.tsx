/**
 * "Resend Verification Email": on the verification page when a link failed, and on the sign-in screen.
 * The server's answer is the same whether or not the address has an account.
 */
import { useMutation } from '@apollo/client/react';
import { ResendVerificationDocument } from '../../graphql/operations.generated';
import { errorCode, serverMessage } from '../../graphql/errors';
import { useForm } from '../../lib/useForm';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { toast } from '../../ui/Toast';

export function ResendVerificationForm({ id, initialEmail = '' }: { id: string; initialEmail?: string }) {
  const [resend] = useMutation(ResendVerificationDocument);
  const { field, pending, onSubmit } = useForm({
    initial: { email: initialEmail },
    check: ({ email }) =>
      email.trim() === ''
        ? { title: 'Email Required', description: 'Please enter your email address to resend verification' }
        : null,
    submit: async ({ email }) => {
      const { data } = await resend({ variables: { email: email.trim() } });
      toast({ title: 'Verification Email Sent', description: data?.resendVerification.message });
    },
    failed: (error) => {
      const message = serverMessage(error);
      // No server message and no code: the request never got an answer (offline, network).
      if (message === undefined && errorCode(error) === undefined) {
        toast({ title: 'Error', description: 'Failed to resend verification email', variant: 'destructive' });
      } else {
        toast({ title: 'Failed to Send', description: message, variant: 'destructive' });
      }
      return {};
    },
  });

  return (
    <form className="stack" noValidate onSubmit={onSubmit} aria-label="Resend the verification link">
      <TextField
        id={id}
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        inputMode="email"
        placeholder="you@example.com"
        {...field('email')}
      />
      <Button type="submit" block variant="outline" loading={pending}>
        Resend Verification Email
      </Button>
    </form>
  );
}
