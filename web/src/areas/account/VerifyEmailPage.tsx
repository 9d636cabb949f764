/**
 * /verify-email?token=…: uses the e-mailed link automatically. Success: "Email Verified", then / after
 * 3 s or at once with "Continue to App". Failure: the reason, a resend form and "Back to Sign In".
 */
import { useEffect, useRef, useState } from 'react';
import { useMutation } from '@apollo/client/react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { VERIFY_EMAIL_REDIRECT_MS } from '../../constants';
import { errorCode, serverMessage } from '../../graphql/errors';
import { VerifyEmailDocument } from '../../graphql/operations.generated';
import { useInteractive } from '../../lib/prerendered';
import { usePageTitle } from '../../lib/usePageTitle';
import { useSession } from '../../gating/useSession';
import { Button } from '../../ui/Button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../ui/Toast';
import { ResendVerificationForm } from './ResendVerification';

type Outcome = { state: 'loading' } | { state: 'success'; message: string } | { state: 'error'; message: string };

export const missingTokenMessage = 'Invalid verification link';
const networkFailureMessage = 'Failed to verify email. Please try again.';

export function VerifyEmailPage() {
  usePageTitle('Verify Email');
  const [params] = useSearchParams();
  const token = params.get('token');
  const navigate = useNavigate();
  const session = useSession();
  const [verify] = useMutation(VerifyEmailDocument);
  const [outcome, setOutcome] = useState<Outcome>(() =>
    token ? { state: 'loading' } : { state: 'error', message: missingTokenMessage },
  );
  // A link is single-use: send it once even if the effect runs twice (React's development double run).
  const sent = useRef(false);
  // The build's HTML, and the page while React adopts it, cannot know the link's token: they show the check under way.
  const interactive = useInteractive();
  const shown: Outcome = interactive ? outcome : { state: 'loading' };

  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    verify({ variables: { token } })
      .then(({ data }) => {
        if (!data?.verifyEmail.verified) throw new Error('not verified');
        setOutcome({ state: 'success', message: data.verifyEmail.message });
        toast({ title: 'Email Verified', description: 'Your email has been successfully verified!' });
        if (session.status === 'signedIn') void session.refetch();
      })
      .catch((error: unknown) => {
        const offline = serverMessage(error) === undefined && errorCode(error) === undefined;
        setOutcome({
          state: 'error',
          message: offline ? networkFailureMessage : (serverMessage(error) ?? networkFailureMessage),
        });
      });
    // The link is the only input; the session is read when the answer arrives.
  }, [token, verify, session]);

  useEffect(() => {
    if (outcome.state !== 'success') return;
    const timer = window.setTimeout(() => navigate('/', { replace: true }), VERIFY_EMAIL_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [outcome.state, navigate]);

  return (
    <main className="auth">
      <div className="auth__inner">
        <Card>
          {shown.state === 'loading' && (
            <CardHeader>
              <CardTitle as="h1">Verifying your email</CardTitle>
              <Spinner size="lg" label="Verifying your email" />
            </CardHeader>
          )}
          {shown.state === 'success' && (
            <>
              <CardHeader>
                <CardTitle as="h1">Email Verified</CardTitle>
                <CardDescription>{shown.message} Taking you to Haven in a moment.</CardDescription>
              </CardHeader>
              <CardContent>
                <Button block onClick={() => navigate('/', { replace: true })}>
                  Continue to App
                </Button>
              </CardContent>
            </>
          )}
          {shown.state === 'error' && (
            <>
              <CardHeader>
                <CardTitle as="h1">Verification Failed</CardTitle>
                <CardDescription role="alert">{shown.message}</CardDescription>
              </CardHeader>
              <CardContent className="stack">
                <ResendVerificationForm id="verify-resend-email" />
                <Button block variant="ghost" onClick={() => navigate('/auth')}>
                  Back to Sign In
                </Button>
              </CardContent>
            </>
          )}
        </Card>
      </div>
    </main>
  );
}
