/**
 * Settings' GDPR status card: whether the GDPR tools are on, the cookie choice this account made and when,
 * and a way to change it (the banner's detailed view). Reads the same REST routes as the banner
 * (consentStore.ts), asked afresh on arrival, so a choice moved at sign-in shows at once.
 */
import { useEffect } from 'react';
import { formatLocalDate, parseIsoDate } from '../../lib/dates';
import { Button } from '../../ui/Button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../ui/Toast';
import { consentSummary } from './consentRules';
import { loadConsent, openCookieSettings, useConsentState } from './consentStore';

export function GdprStatusCard() {
  const state = useConsentState();

  useEffect(() => {
    void loadConsent({ fresh: true }).then((loaded) => {
      if (loaded.status === 'failed') {
        toast({
          title: 'Unable to load GDPR status',
          description: 'Please try again in a moment.',
          variant: 'destructive',
        });
      }
    });
  }, []);

  const givenAt = state.status === 'ready' ? parseIsoDate(state.consent?.consentGivenAt) : null;
  return (
    <Card aria-labelledby="gdpr-title" data-testid="gdpr-status">
      <CardHeader>
        <CardTitle id="gdpr-title">GDPR Status</CardTitle>
        <CardDescription>Your rights over your data, and the cookies you allow.</CardDescription>
      </CardHeader>
      <CardContent className="stack-sm">
        {state.status === 'loading' && <Spinner />}
        {state.status === 'failed' && <p className="text-muted">We couldn’t load your privacy choices just now.</p>}
        {state.status === 'ready' && (
          <>
            <p>
              Data protection tools: <strong>{state.config.gdprEnabled ? 'On' : 'Off'}</strong>
            </p>
            <p data-testid="cookie-choice">
              {state.consent && givenAt ? (
                <>
                  Cookies: <strong>{consentSummary(state.consent)}</strong>, chosen on {formatLocalDate(givenAt)}.
                </>
              ) : (
                'You haven’t made a cookie choice yet. Until you do, Haven uses essential cookies only.'
              )}
            </p>
            {state.config.cookieBannerEnabled && (
              <Button variant="outline" block onClick={openCookieSettings}>
                Change cookie settings
              </Button>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
