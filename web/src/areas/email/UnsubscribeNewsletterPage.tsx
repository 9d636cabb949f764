/** /unsubscribe-newsletter?token=…: the personal link at the foot of every newsletter. */
import { useMutation } from '@apollo/client/react';
import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { serverMessage } from '../../graphql/errors';
import { UnsubscribeFromNewsletterByTokenDocument } from '../../graphql/operations.generated';
import { useInteractive } from '../../lib/prerendered';
import { usePageTitle } from '../../lib/usePageTitle';
import { Button, buttonClass } from '../../ui/Button';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../ui/Toast';
import { LinkResultCard } from './LinkResultCard';
import { tokenFrom } from './emailRules';
import { useOnceOnMount } from './useOnceOnMount';

type State = { kind: 'loading' } | { kind: 'success'; message: string } | { kind: 'error'; message: string };

const feedbackReasons = ['Too many emails', "Content wasn't relevant", 'No longer using the app'] as const;

export function UnsubscribeNewsletterPage() {
  usePageTitle('Unsubscribe');
  const token = tokenFrom(useLocation().search);
  const [state, setState] = useState<State>(
    token ? { kind: 'loading' } : { kind: 'error', message: 'Invalid unsubscribe link' },
  );
  const [unsubscribe] = useMutation(UnsubscribeFromNewsletterByTokenDocument);

  useOnceOnMount(() => {
    if (!token) return;
    unsubscribe({ variables: { token } })
      .then(({ data }) => {
        const result = data?.unsubscribeFromNewsletterByToken;
        if (!result?.unsubscribed) throw new Error('not unsubscribed');
        setState({ kind: 'success', message: result.message });
        toast({ title: 'Successfully Unsubscribed', description: "You won't receive any more newsletters from us." });
      })
      .catch((error: unknown) => {
        const message = serverMessage(error);
        if (message) toast({ title: 'Unsubscribe Failed', description: message, variant: 'destructive' });
        else toast({ title: 'Error', description: 'Failed to unsubscribe. Please try again.', variant: 'destructive' });
        setState({ kind: 'error', message: message ?? 'Failed to unsubscribe. Please try again.' });
      });
  });

  // The build's HTML, and the page while React adopts it, cannot know the link's token: they show the check under way.
  const interactive = useInteractive();
  if (state.kind === 'loading' || !interactive) {
    return (
      <LinkResultCard title="Unsubscribing">
        <Spinner />
      </LinkResultCard>
    );
  }
  if (state.kind === 'error') {
    return (
      <LinkResultCard title="Unsubscribe failed" description={state.message}>
        <Link to="/" className={buttonClass({ block: true })}>
          Return to home
        </Link>
      </LinkResultCard>
    );
  }
  return (
    <LinkResultCard title="Successfully Unsubscribed" description={state.message}>
      <p className="text-muted">Would you tell us why? (optional)</p>
      <div className="stack" role="group" aria-label="Why you unsubscribed">
        {feedbackReasons.map((reason) => (
          <Button
            key={reason}
            variant="outline"
            block
            onClick={() => toast({ title: 'Thank you', description: 'Your feedback helps us do better.' })}
          >
            {reason}
          </Button>
        ))}
      </div>
      <p className="text-muted">
        You may still receive emails about your account, such as security and billing notices.
      </p>
      <Link to="/" className={buttonClass({ block: true })}>
        Return to home
      </Link>
    </LinkResultCard>
  );
}
