/** /stop-emails?token=…: the stop link at the foot of an e-mail a switch governs (the weekly summary, the check-in reminder). */
import { useMutation } from '@apollo/client/react';
import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { serverMessage } from '../../graphql/errors';
import { StopEmailsByLinkDocument } from '../../graphql/operations.generated';
import { usePageTitle } from '../../lib/usePageTitle';
import { buttonClass } from '../../ui/Button';
import { Spinner } from '../../ui/Spinner';
import { LinkResultCard } from './LinkResultCard';
import { tokenFrom } from './emailRules';
import { useOnceOnMount } from './useOnceOnMount';

type State = { kind: 'loading' } | { kind: 'done'; message: string } | { kind: 'error'; message: string };

export function StopEmailsPage() {
  usePageTitle('Stop emails');
  const token = tokenFrom(useLocation().search);
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [stop] = useMutation(StopEmailsByLinkDocument);

  // A link without a token goes to the service too: it alone words why a link is refused.
  useOnceOnMount(() => {
    stop({ variables: { token: token ?? '' } })
      .then(({ data }) => {
        const result = data?.stopEmailsByLink;
        if (!result?.stopped) throw new Error('not stopped');
        setState({ kind: 'done', message: result.message });
      })
      .catch((error: unknown) => {
        setState({ kind: 'error', message: serverMessage(error) ?? 'That did not work just now. Please try again.' });
      });
  });

  if (state.kind === 'loading') {
    return (
      <LinkResultCard title="Stopping these emails">
        <Spinner />
      </LinkResultCard>
    );
  }
  return (
    <LinkResultCard title={state.kind === 'done' ? 'Done' : 'This link did not work'} description={state.message}>
      <p className="text-muted">Emails about your account, such as security and billing notices, still reach you.</p>
      <Link to="/email-preferences" className={buttonClass({ block: true })}>
        Email preferences
      </Link>
      <Link to="/" className={buttonClass({ variant: 'outline', block: true })}>
        Return to home
      </Link>
    </LinkResultCard>
  );
}
