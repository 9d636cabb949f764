/**
 * The payment-method form. With the local test-mode provider (no Stripe keys) it is a clearly labelled test
 * form that never charges anyone; the provider decides by the test card's number. Flow: setup intent →
 * confirm the card → create the subscription → welcome toast → /?welcome=true after 1 s; a first payment that
 * fails keeps the person here, told why. In change mode (Settings → Subscription, and /subscription after a failed
 * payment) the setup only saves a new card: confirm it → make it the subscription's → toast. A card the provider
 * is still confirming (processing) shows that, neither welcome nor failure, until the subscription has started (or,
 * in change mode, until the new card is the one on file: billing makes it so when the provider confirms it, page
 * open or not). A card whose bank asks the person to confirm it goes to the bank's page, which returns to the page
 * the setup started on (setupReturn.ts); a changed card becomes the card on file only once the bank has confirmed it.
 */
import { useApolloClient, useMutation, useQuery } from '@apollo/client/react';
import { lazy, Suspense, useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import {
  CardChangeSettledDocument,
  ConfirmTestCardDocument,
  CreateSubscriptionDocument,
  PaymentConfigDocument,
  SetupSettledDocument,
  StartPaymentSetupDocument,
  UpdatePaymentMethodDocument,
} from '../../graphql/operations.generated';
import { errorCode, serverMessage } from '../../graphql/errors';
import { loadOrReload } from '../../lib/bundles';
import { Button } from '../../ui/Button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { TextField } from '../../ui/Field';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../ui/Toast';
import { PREMIUM_PRICE_LABEL } from '../../constants';
import {
  AFTER_SETUP_REDIRECT_MS,
  cardChangeSettled,
  changeCardNotices,
  changeProcessingTexts,
  changeCardTexts,
  noticeForSetupResult,
  planOfferTexts,
  type PlanOffer,
  processingTexts,
  SETUP_SETTLED_POLL_MS,
  SETUP_SETTLED_POLLS,
  setupNotices,
  type Notice,
  setupSettled,
  WELCOME_PATH,
} from './paymentSetup';
import { paymentFailedTexts } from './paymentRecovery';
import {
  cardChangeChallengeUrl,
  cardChangePlaceOf,
  parseSetupReturn,
  stripeReturnUrl,
  type CardChangePlace,
} from './setupReturn';

// Stripe.js loads only when Stripe is configured.
const StripeCardForm = lazy(loadOrReload(() => import('./StripeCardForm')));

type PaymentSetupProps = { onBack: () => void; afterSuccess: () => Promise<void> } & (
  | {
      mode?: 'start';
      /** What subscribing does now (the server's answer): the free trial first, or the first month at once. */
      offer: PlanOffer;
    }
  /**
   * A new card for the running subscription: nothing starts, and the page stays where it is. With a failed
   * payment waiting, saving the card also pays it, and the form says so.
   */
  | { mode: 'change'; retriesPayment?: boolean }
);

/**
 * After a confirmed start setup, in the page or on the return from the bank's check: the subscription it started
 * (or starts now), the welcome toast, then the welcome page. A first payment that failed gets no welcome: the
 * person stays, told why, and the refreshed status turns the page to updating the card. True when welcomed.
 */
export function useFinishStart(afterSuccess: () => Promise<void>): () => Promise<boolean> {
  const navigate = useNavigate();
  const [createSubscription] = useMutation(CreateSubscriptionDocument);
  return async () => {
    try {
      const { data } = await createSubscription();
      const created = data?.createSubscriptionAfterSetup;
      if (created?.subscriptionStatus.status === 'payment_failed') {
        toast(setupNotices.paymentFailed(created.message));
        await afterSuccess();
        return false;
      } else {
        toast(
          created?.subscriptionStatus.isTrialing === false
            ? setupNotices.welcomeWithoutTrial(created.message)
            : setupNotices.welcome,
        );
      }
    } catch {
      // The card is added; the subscription may still be on its way. The user goes on regardless: the page
      // they land on shows its state.
      toast(setupNotices.fallback);
    }
    window.setTimeout(() => {
      void afterSuccess().finally(() => navigate(WELCOME_PATH));
    }, AFTER_SETUP_REDIRECT_MS);
    return true;
  };
}

/** What a card change's answer tells the person: saved, or saved with the failed payment still open. */
function changeNotice(
  result: { message: string; subscriptionStatus: { hasActiveSubscription: boolean } } | undefined,
): Notice {
  return result && !result.subscriptionStatus.hasActiveSubscription
    ? changeCardNotices.savedStillUnpaid(result.message)
    : changeCardNotices.updated(result?.message);
}

/**
 * The return from a new card's bank check to the page the change started on (`place`). Confirmed, billing has made
 * it the card on file already; the call answers that change (and says whether a failed payment went through).
 * Not confirmed, the current card stays on file, and the person is told so. The parameters leave the address at
 * once, so a reload does not repeat it; `afterChange` refreshes what the page shows.
 */
export function useCardChangeReturn(place: CardChangePlace, afterChange: (() => Promise<void>) | null): void {
  const location = useLocation();
  const navigate = useNavigate();
  const [updatePaymentMethod] = useMutation(UpdatePaymentMethodDocument);
  const handled = useRef(false);
  useEffect(() => {
    const back = parseSetupReturn(location.search);
    if (!back || back.cardChange !== place || !afterChange || handled.current) return;
    handled.current = true;
    navigate(location.pathname, { replace: true });
    if (!back.succeeded) {
      toast(changeCardNotices.authenticationFailed());
      void afterChange();
      return;
    }
    updatePaymentMethod()
      .then(({ data }) => toast(changeNotice(data?.updatePaymentMethodAfterSetup)))
      .catch((error: unknown) =>
        toast(changeCardNotices.failed(error instanceof Error ? error.message : 'Please try again.')),
      )
      .finally(() => void afterChange());
  }, [location.search, location.pathname, navigate, place, afterChange, updatePaymentMethod]);
}

export function PaymentSetup(props: PaymentSetupProps) {
  const { onBack, afterSuccess } = props;
  const changing = props.mode === 'change';
  const navigate = useNavigate();
  const location = useLocation();
  // A card change returns from the bank's page to where it started (Settings, or /subscription).
  const changePlace = changing ? (cardChangePlaceOf(location.pathname) ?? 'settings') : null;
  const config = useQuery(PaymentConfigDocument);
  const [startSetup] = useMutation(StartPaymentSetupDocument);
  const [confirmCard] = useMutation(ConfirmTestCardDocument);
  const finishStart = useFinishStart(afterSuccess);
  const [updatePaymentMethod] = useMutation(UpdatePaymentMethodDocument);
  const [clientSecret, setClientSecret] = useState<string | null>(null);
  const [cardNumber, setCardNumber] = useState('');
  const [busy, setBusy] = useState(false);
  /** The provider is confirming the card: 'waiting', then 'slow' after the usual time. */
  const [processing, setProcessing] = useState<'waiting' | 'slow' | null>(null);
  const apollo = useApolloClient();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    startSetup({ variables: { purpose: changing ? 'CHANGE_CARD' : 'START' } })
      .then(({ data }) => {
        if (data?.createSetupIntent.clientSecret) setClientSecret(data.createSetupIntent.clientSecret);
        else throw new Error('no client secret');
      })
      .catch((error: unknown) => {
        // Refused for what the account is now (e.g. a payment failed since the page loaded): the server's reason,
        // and the page refreshed to show that state.
        const refusal = errorCode(error) === 'CONFLICT' ? serverMessage(error) : undefined;
        toast(refusal ? setupNotices.initRefused(refusal) : setupNotices.initFailed);
        if (refusal) void afterSuccess();
      });
  }, [startSetup, changing, afterSuccess]);

  // The provider confirms the card on its own time (and billing starts the subscription then, page open or not):
  // asked again, bounded, and the person is welcomed as after any other start.
  useEffect(() => {
    if (processing !== 'waiting') return;
    let stopped = false;
    const settled = async () => {
      if (changing) {
        const answer = await apollo
          .query({ query: CardChangeSettledDocument, fetchPolicy: 'no-cache' })
          .catch(() => null);
        return answer?.data?.me ? cardChangeSettled(answer.data.me.cardChangeStatus) : false;
      }
      const answer = await apollo.query({ query: SetupSettledDocument, fetchPolicy: 'no-cache' }).catch(() => null);
      return setupSettled(answer?.data?.me?.subscriptionStatus?.status);
    };
    const wait = async () => {
      for (let poll = 0; poll < SETUP_SETTLED_POLLS && !stopped; poll++) {
        await new Promise((resolve) => window.setTimeout(resolve, SETUP_SETTLED_POLL_MS));
        if (stopped) return;
        const done = await settled();
        if (stopped) return;
        if (done && changing) {
          // Billing has made the new card the one on file: its answer says so, and the form closes.
          await finishChange();
          setProcessing(null);
          return;
        }
        if (done) {
          if (!(await finishStart())) {
            setProcessing(null);
            setBusy(false);
          }
          return;
        }
      }
      if (!stopped) setProcessing('slow');
    };
    void wait();
    return () => {
      stopped = true;
    };
    // Once per processing setup: finishStart and finishChange are made anew on each render, and do the same each time.
  }, [processing, apollo, changing]);

  const finishChange = async () => {
    try {
      const { data } = await updatePaymentMethod();
      toast(changeNotice(data?.updatePaymentMethodAfterSetup));
      await afterSuccess();
    } catch (error) {
      toast(changeCardNotices.failed(error instanceof Error ? error.message : 'Please try again.'));
      setBusy(false);
    }
  };

  const finish = async () => {
    if (changing) return finishChange();
    // No welcome (the first payment failed): the form is free again.
    if (!(await finishStart())) setBusy(false);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!clientSecret || busy) return;
    setBusy(true);
    try {
      const { data } = await confirmCard({ variables: { input: { clientSecret, cardNumber } } });
      const result = data?.confirmLocalSetup ?? { status: 'unknown' };
      // The card's bank asks the person to confirm it: its page (the test-mode stand-in) returns to /subscription,
      // or a card change to the page it started on.
      if (result.status === 'requires_action' && 'challengeUrl' in result && result.challengeUrl) {
        navigate(changePlace ? cardChangeChallengeUrl(result.challengeUrl, changePlace) : result.challengeUrl);
        return;
      }
      if (result.status === 'processing') {
        setProcessing('waiting');
        return;
      }
      const notice = noticeForSetupResult(result);
      if (notice) {
        toast(notice);
        setBusy(false);
        return;
      }
      await finish();
    } catch (error) {
      toast(setupNotices.paymentFailed(error instanceof Error ? error.message : 'Please try again.'));
      setBusy(false);
    }
  };

  const provider = config.data?.paymentConfig.provider;
  const changeTexts =
    props.mode === 'change' && props.retriesPayment ? paymentFailedTexts(PREMIUM_PRICE_LABEL).form : changeCardTexts;
  const texts = changing ? changeTexts : planOfferTexts(props.offer);
  const waitTexts = changing ? changeProcessingTexts : processingTexts;

  return (
    <Card aria-labelledby="payment-title">
      <CardHeader>
        <CardTitle id="payment-title">{changing ? changeTexts.title : 'Payment method'}</CardTitle>
        {provider === 'local' && (
          <CardDescription>
            <strong>Test mode.</strong> No real card is charged, ever. Use the test card 4242 4242 4242 4242 (works),
            4000 0000 0000 0002 (declined) or 4000 0027 6000 3184 (your bank asks you to confirm it)
            {changing ? '; 5555 5555 5555 4444 is a Mastercard that works.' : '.'}
          </CardDescription>
        )}
      </CardHeader>
      <CardContent className="stack">
        {processing ? (
          <div role="status" className="stack" data-testid="payment-processing">
            <p>
              <strong>{waitTexts.title}</strong>
            </p>
            <p>{processing === 'slow' ? waitTexts.tooLong : waitTexts.body}</p>
            {processing === 'waiting' && <Spinner decorative />}
          </div>
        ) : !clientSecret || !provider ? (
          <Spinner />
        ) : provider === 'local' ? (
          <form className="stack" onSubmit={(event) => void onSubmit(event)} aria-label="Test-mode card form">
            <TextField
              id="test-card-number"
              label="Test card number"
              inputMode="numeric"
              autoComplete="off"
              placeholder="4242 4242 4242 4242"
              value={cardNumber}
              onChange={(event) => setCardNumber(event.target.value)}
              required
            />
            <Button type="submit" block disabled={busy}>
              {busy ? texts.cardBusy : texts.cardButton}
            </Button>
          </form>
        ) : config.data?.paymentConfig.publishableKey ? (
          <Suspense fallback={<Spinner />}>
            <StripeCardForm
              publishableKey={config.data.paymentConfig.publishableKey}
              clientSecret={clientSecret}
              onSucceeded={finish}
              onProcessing={() => setProcessing('waiting')}
              returnUrl={stripeReturnUrl(window.location.origin, changePlace)}
              submitLabel={texts.cardButton}
              busyLabel={texts.cardBusy}
            />
          </Suspense>
        ) : (
          <p role="alert">Card payments are not configured. Please contact support.</p>
        )}
        <Button variant="outline" onClick={onBack} disabled={busy}>
          {changing ? changeTexts.back : 'Back to Plans'}
        </Button>
      </CardContent>
    </Card>
  );
}
