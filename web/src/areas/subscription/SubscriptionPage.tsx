/**
 * /subscription: the current status, the Premium plan, and "Start 3-Day Free Trial", which opens the
 * payment form (the local test-mode form; Stripe Elements when Stripe is configured). The trial is once per
 * account and once per address: the plan card, button and texts follow billing's answer to what subscribing does
 * now (the trial and the day of the first payment, or the first month charged when the card is added).
 * After a failed payment the page shows the "Payment Failed" state and offers a new card for the subscription (the
 * payment is tried again with it at once), never a second subscription.
 */
import { useQuery } from '@apollo/client/react';
import { useEffect, useRef, useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { BRAND } from '../../brand';
import { PREMIUM_PRICE_LABEL, TRIAL_DAYS } from '../../constants';
import { PaymentMethodOnFileDocument, SubscriptionOfferDocument } from '../../graphql/operations.generated';
import { usePageTitle } from '../../lib/usePageTitle';
import {
  epochSecondsToLocalDate,
  isActivePremium,
  subscriptionBadgeLabel,
  subscriptionDescription,
  subscriptionDotColour,
  type SubscriptionStatusLike,
} from './subscriptionStatus';
import { useSession } from '../../gating/useSession';
import { Badge } from '../../ui/Badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { CheckIcon } from '../../ui/icons';
import { Button } from '../../ui/Button';
import { FullPageSpinner } from '../../ui/Spinner';
import { PaymentSetup, useCardChangeReturn, useFinishStart } from './PaymentSetup';
import { planOfferFrom, planOfferTexts, setupNotices, vatNote, type PlanOffer } from './paymentSetup';
import { paymentFailedTexts, subscriptionPageOffer } from './paymentRecovery';
import { parseSetupReturn } from './setupReturn';
import { cardOnFileLine } from './subscriptionCard';
import { toast } from '../../ui/Toast';

export const PREMIUM_FEATURES = [
  'Unlimited personalized quotes',
  'Advanced emotional intelligence',
  'Priority support',
  'Advanced wellness analytics',
  'Export your data',
  'Early access to new features',
] as const;

export function SubscriptionPage() {
  usePageTitle('Subscription');
  const session = useSession();
  const [paying, setPaying] = useState(false);
  const maySubscribe =
    session.status === 'signedIn' &&
    !!session.subscription &&
    subscriptionPageOffer(session.subscription) === 'subscribe';
  // Asked whenever a subscription could start, so the page never promises a trial that will not come.
  const offer = useQuery(SubscriptionOfferDocument, { skip: !maySubscribe, fetchPolicy: 'network-only' });
  // Once signed in is known: the welcome then refreshes the session's subscription before it opens.
  const finishing = useSetupReturn(session.status === 'signedIn' ? session.refetchSubscription : null, () =>
    setPaying(true),
  );
  // A new card's bank check started here (after a failed payment) returns here.
  useCardChangeReturn('subscription', session.status === 'signedIn' ? session.refetchSubscription : null);

  if (session.status === 'loading' || (finishing && session.status === 'signedIn')) return <FullPageSpinner />;
  if (session.status === 'signedOut') return <Navigate to="/auth" replace />;

  const status = session.subscription;
  const serverOffer = offer.data?.me?.subscriptionOffer;
  if (!status || (maySubscribe && !serverOffer)) {
    if (session.subscriptionCheck === 'loading' || (maySubscribe && offer.loading)) return <FullPageSpinner />;
    return (
      <div className="page stack">
        <p role="alert">We couldn&apos;t load your subscription just now. Please try again in a moment.</p>
        <Button onClick={() => void Promise.all([session.refetchSubscription(), offer.refetch().catch(() => null)])}>
          Try again
        </Button>
      </div>
    );
  }
  if (subscriptionPageOffer(status) === 'update_card') {
    return (
      <PaymentFailedView
        status={status}
        updating={paying}
        setUpdating={setPaying}
        afterCardChange={session.refetchSubscription}
      />
    );
  }
  const premium = isActivePremium(status);
  // Without a subscription to start (already Premium), the plan as the trial offers it, with no date to name.
  const planOffer: PlanOffer = serverOffer
    ? planOfferFrom(serverOffer)
    : {
        trial: true,
        trialDays: TRIAL_DAYS,
        price: PREMIUM_PRICE_LABEL,
        dueToday: PREMIUM_PRICE_LABEL,
        firstChargeOn: null,
      };
  const texts = planOfferTexts(planOffer);

  if (paying && maySubscribe) {
    return (
      <div className="page stack">
        <header className="page__header">
          <h1 className="page__title">Add a payment method</h1>
          <p className="text-muted">{texts.paymentIntro}</p>
          {texts.firstCharge && <p data-testid="first-charge">{texts.firstCharge}</p>}
        </header>
        <PaymentSetup onBack={() => setPaying(false)} afterSuccess={session.refetchSubscription} offer={planOffer} />
        <OfferInfoCard title={texts.infoTitle} paragraphs={texts.info} footnote={vatNote} />
      </div>
    );
  }

  return (
    <div className="page stack">
      <header className="page__header">
        <h1 className="page__title">Subscription</h1>
        <p className="text-muted">Unlock your full wellness journey with {BRAND.name} Premium.</p>
      </header>

      {premium && (
        <div className="callout callout--success" role="status">
          <Badge variant="success">You&apos;re Premium!</Badge>
          <p>
            Thank you for supporting {BRAND.name}.
            {status.currentPeriodEnd != null &&
              (status.cancelAtPeriodEnd
                ? ` Your access continues until ${epochSecondsToLocalDate(status.currentPeriodEnd)}.`
                : ` Your plan renews on ${epochSecondsToLocalDate(status.currentPeriodEnd)}.`)}
          </p>
        </div>
      )}

      <CurrentStatusCard status={status} />

      <Card className="plan-card" aria-labelledby="premium-plan-title">
        <CardHeader>
          <div className="plan-card__top">
            <CardTitle id="premium-plan-title">Premium</CardTitle>
            <Badge variant="info">Recommended</Badge>
          </div>
          <p className="plan-card__price">
            <span className="plan-card__amount">{planOffer.price}</span> <span className="text-muted">per month</span>
          </p>
          <CardDescription>{texts.planNote}</CardDescription>
          {maySubscribe && texts.firstCharge && <p data-testid="first-charge">{texts.firstCharge}</p>}
          <p className="text-muted">{vatNote}</p>
        </CardHeader>
        <CardContent>
          <ul className="feature-list">
            {PREMIUM_FEATURES.map((feature) => (
              <li key={feature}>
                <CheckIcon size={18} className="feature-list__icon" />
                {feature}
              </li>
            ))}
          </ul>
          {maySubscribe && (
            <Button block size="lg" onClick={() => setPaying(true)}>
              {texts.startButton}
            </Button>
          )}
        </CardContent>
      </Card>

      <OfferInfoCard title={texts.infoTitle} paragraphs={texts.info} />
    </div>
  );
}

/**
 * The return from the card's bank check (Stripe's page, or the test-mode stand-in): succeeded finishes as the
 * in-page success does; failed goes back to the payment step with the reason. The parameters leave the address
 * at once, so a reload does not repeat it. Whether the page is finishing (the welcome is on its way).
 */
function useSetupReturn(afterSuccess: (() => Promise<void>) | null, backToPayment: () => void): boolean {
  const location = useLocation();
  const navigate = useNavigate();
  const finishStart = useFinishStart(afterSuccess ?? (() => Promise.resolve()));
  const handled = useRef(false);
  const [finishing, setFinishing] = useState(() => {
    const back = parseSetupReturn(location.search);
    return back?.succeeded === true && !back.cardChange;
  });
  useEffect(() => {
    const back = parseSetupReturn(location.search);
    // A card change's return is the change's to finish (useCardChangeReturn), never a start.
    if (!back || back.cardChange || !afterSuccess || handled.current) return;
    handled.current = true;
    navigate(location.pathname, { replace: true });
    if (back.succeeded) {
      setFinishing(true);
      void finishStart().then((welcomed) => {
        // The first payment failed: no welcome, the payment step again (the page now offers a new card).
        if (!welcomed) {
          setFinishing(false);
          backToPayment();
        }
      });
    } else {
      toast(setupNotices.authenticationFailed);
      backToPayment();
    }
  }, [location.search, location.pathname, navigate, afterSuccess, finishStart, backToPayment]);
  return finishing;
}

/** The "Current Status" card: the status badge and its description. */
function CurrentStatusCard({ status }: { status: SubscriptionStatusLike }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Current Status</CardTitle>
      </CardHeader>
      <CardContent className="status-row">
        <span className={`status-dot status-dot--${subscriptionDotColour(status)}`} aria-hidden="true" />
        <Badge variant={status.isTrialing || status.planType === 'premium' ? 'default' : 'secondary'}>
          {subscriptionBadgeLabel(status)}
        </Badge>
        <span className="text-muted">{subscriptionDescription(status)}</span>
      </CardContent>
    </Card>
  );
}

/**
 * The "Payment Failed" state: what happened, the card that failed, and a new card for the same subscription (the
 * payment is tried again with it at once; access comes back when it goes through).
 */
function PaymentFailedView({
  status,
  updating,
  setUpdating,
  afterCardChange,
}: {
  status: SubscriptionStatusLike;
  updating: boolean;
  setUpdating: (updating: boolean) => void;
  afterCardChange: () => Promise<void>;
}) {
  const cardQuery = useQuery(PaymentMethodOnFileDocument, { fetchPolicy: 'cache-and-network' });
  const card = cardQuery.data?.me?.paymentMethod ?? null;
  const texts = paymentFailedTexts(PREMIUM_PRICE_LABEL);
  const afterSuccess = async () => {
    setUpdating(false);
    // Paid, the status turns active and the page with it; still unpaid, the new card shows here.
    await Promise.all([cardQuery.refetch(), afterCardChange()]);
  };
  return (
    <div className="page stack">
      <header className="page__header">
        <h1 className="page__title">Subscription</h1>
      </header>

      <div className="callout callout--danger" role="alert" data-testid="payment-failed">
        <Badge variant="destructive">{texts.title}</Badge>
        <p>{texts.happened}</p>
        <p data-testid="card-on-file">{card ? cardOnFileLine(card, status) : texts.whatToDo}</p>
        <p>{texts.after}</p>
        {!updating && <Button onClick={() => setUpdating(true)}>{texts.button}</Button>}
      </div>

      {updating && (
        <PaymentSetup mode="change" retriesPayment onBack={() => setUpdating(false)} afterSuccess={afterSuccess} />
      )}

      <CurrentStatusCard status={status} />
    </div>
  );
}

/** The info card: exactly what happens, in order, and what it costs (with the VAT note where no plan card shows). */
function OfferInfoCard({
  title,
  paragraphs,
  footnote,
}: {
  title: string;
  paragraphs: readonly string[];
  footnote?: string;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent className="stack">
        {paragraphs.map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
        {footnote && <p className="text-muted">{footnote}</p>}
      </CardContent>
    </Card>
  );
}
