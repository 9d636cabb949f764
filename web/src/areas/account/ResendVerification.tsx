/**
 * "Resend Verification Email": on the verification page when a link failed, and on the sign-in screen.
 * The server's answer is the same whether or not the address has an account.
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { useMutation } from '@apollo/client/react';
import { ResendVerificationDocument } from '../../graphql/operations.generated';
import { errorCode, serverMessage } from '../../graphql/errors';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { toast } from '../../ui/Toast';

export function ResendVerificationForm({ id, initialEmail = '' }: { id: string; initialEmail?: string }) {
  const [resend] = useMutation(ResendVerificationDocument);
  const [email, setEmail] = useState(initialEmail);
  const [pending, setPending] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (email.trim() === '') {
      toast({
        title: 'Email Required',
        description: 'Please enter your email address to resend verification',
        variant: 'destructive',
      });
      return;
    }
    setPending(true);
    try {
      const { data } = await resend({ variables: { email: email.trim() } });
      toast({ title: 'Verification Email Sent', description: data?.resendVerification.message });
    } catch (error) {
      const message = serverMessage(error);
      // No server message and no code: the request never got an answer (offline, network).
      if (message === undefined && errorCode(error) === undefined) {
        toast({ title: 'Error', description: 'Failed to resend verification email', variant: 'destructive' });
      } else {
        toast({ title: 'Failed to Send', description: message, variant: 'destructive' });
      }
    } finally {
      setPending(false);
    }
  };

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
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <Button type="submit" block variant="outline" loading={pending}>
        Resend Verification Email
      </Button>
    </form>
  );
}
