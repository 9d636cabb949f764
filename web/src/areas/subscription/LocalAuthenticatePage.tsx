/**
 * /local-payments/authenticate: the local test-mode provider's stand-in for the page a card's bank shows when it
 * asks the person to confirm the card (Stripe hosts its own). It says plainly that it is test mode; the person
 * chooses the bank's answer, and the page returns to /subscription as Stripe does after its page.
 */
import { useMutation } from '@apollo/client/react';
import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { AuthenticateTestCardDocument } from '../../graphql/operations.generated';
import { usePageTitle } from '../../lib/usePageTitle';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { toast } from '../../ui/Toast';
import { setupNotices } from './paymentSetup';
import { challengeTexts, parseChallenge, setupReturnPath } from './setupReturn';

export function LocalAuthenticatePage() {
  usePageTitle('Confirm your card');
  const location = useLocation();
  const navigate = useNavigate();
  const [authenticate] = useMutation(AuthenticateTestCardDocument);
  const [busy, setBusy] = useState(false);
  const challenge = parseChallenge(location.search);

  const answer = async (approve: boolean) => {
    if (!challenge || busy) return;
    setBusy(true);
    try {
      const { data } = await authenticate({ variables: { input: { clientSecret: challenge.clientSecret, approve } } });
      const succeeded = data?.authenticateLocalSetup.status === 'succeeded';
      navigate(setupReturnPath({ ...challenge, succeeded }), { replace: true });
    } catch (error) {
      toast(setupNotices.paymentFailed(error instanceof Error ? error.message : 'Please try again.'));
      setBusy(false);
    }
  };

  return (
    <div className="page stack">
      <Card aria-labelledby="challenge-title">
        <CardHeader>
          <Badge variant="secondary">{challengeTexts.testMode}</Badge>
          <CardTitle as="h1" id="challenge-title">
            {challengeTexts.title}
          </CardTitle>
          <CardDescription>{challengeTexts.explanation}</CardDescription>
        </CardHeader>
        <CardContent className="stack">
          {challenge ? (
            <>
              <Button block disabled={busy} onClick={() => void answer(true)}>
                {busy ? challengeTexts.busy : challengeTexts.approve}
              </Button>
              <Button block variant="outline" disabled={busy} onClick={() => void answer(false)}>
                {challengeTexts.fail}
              </Button>
            </>
          ) : (
            <>
              <p role="alert">{challengeTexts.missing}</p>
              <Link to="/subscription">{challengeTexts.back}</Link>
            </>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
