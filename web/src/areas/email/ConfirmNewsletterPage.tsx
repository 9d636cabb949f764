/** /confirm-newsletter?token=…: the newsletter's double opt-in link. */
import { useMutation } from '@apollo/client/react';
import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { BRAND } from '../../brand';
import { serverMessage } from '../../graphql/errors';
import { ConfirmNewsletterSubscriptionDocument } from '../../graphql/operations.generated';
import { usePageTitle } from '../../lib/usePageTitle';
import { buttonClass } from '../../ui/Button';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../ui/Toast';
import { LinkResultCard } from './LinkResultCard';
import { tokenFrom } from './emailRules';
import { useOnceOnMount } from './useOnceOnMount';

type State = { kind: 'loading' } | { kind: 'success'; message: string } | { kind: 'error'; message: string };

export function ConfirmNewsletterPage() {
  usePageTitle('Confirm Subscription');
  const token = tokenFrom(useLocation().search);
  const [state, setState] = useState<State>(
    token ? { kind: 'loading' } : { kind: 'error', message: 'Invalid confirmation link' },
  );
  const [confirm] = useMutation(ConfirmNewsletterSubscriptionDocument);

  useOnceOnMount(() => {
    if (!token) return;
    confirm({ variables: { token } })
      .then(({ data }) => {
        const result = data?.confirmNewsletterSubscription;
        if (!result?.confirmed) throw new Error('not confirmed');
        setState({ kind: 'success', message: result.message });
        toast({ title: 'Subscription Confirmed', description: result.message });
      })
      .catch((error: unknown) => {
        const message = serverMessage(error);
        if (!message)
          toast({
            title: 'Error',
            description: 'Failed to confirm subscription. Please try again.',
            variant: 'destructive',
          });
        setState({ kind: 'error', message: message ?? 'Failed to confirm subscription. Please try again.' });
      });
  });

  if (state.kind === 'loading') {
    return (
      <LinkResultCard title="Confirming your subscription">
        <Spinner />
      </LinkResultCard>
    );
  }
  if (state.kind === 'success') {
    return (
      <LinkResultCard title="Subscription Confirmed" description={state.message}>
        <Link to="/" className={buttonClass({ block: true })}>
          Go to Homepage
        </Link>
      </LinkResultCard>
    );
  }
  return (
    <LinkResultCard title="Confirmation failed" description={state.message}>
      <Link to="/" className={buttonClass({ block: true })}>
        Go to Homepage
      </Link>
      <a href={`mailto:${BRAND.supportEmail}`} className={buttonClass({ variant: 'outline', block: true })}>
        Contact Support
      </a>
    </LinkResultCard>
  );
}
