/**
 * The card form with Stripe configured: Stripe's own Payment Element (Stripe.js, loaded only in this mode),
 * confirming the setup intent without a redirect unless the card's bank requires one.
 */
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
// The pure entry loads Stripe.js when loadStripe is called, not when this module is imported.
import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { useMemo, useState, type FormEvent } from 'react';
import { Button } from '../../ui/Button';
import { toast } from '../../ui/Toast';
import { noticeForSetupResult, setupNotices } from './paymentSetup';

const stripeByKey = new Map<string, Promise<Stripe | null>>();

export default function StripeCardForm(props: {
  publishableKey: string;
  clientSecret: string;
  onSucceeded: () => Promise<void>;
  /** Stripe is still confirming the card (`processing`): the payment step waits for it. Absent: "Setup Incomplete". */
  onProcessing?: () => void;
  /** Where Stripe sends the browser back after the bank's page (setupReturn.ts). */
  returnUrl: string;
  submitLabel: string;
  busyLabel: string;
}) {
  const stripe = useMemo(() => {
    let pending = stripeByKey.get(props.publishableKey);
    if (!pending) {
      pending = loadStripe(props.publishableKey);
      stripeByKey.set(props.publishableKey, pending);
    }
    return pending;
  }, [props.publishableKey]);
  return (
    <Elements stripe={stripe} options={{ clientSecret: props.clientSecret }}>
      <CardForm
        onSucceeded={props.onSucceeded}
        onProcessing={props.onProcessing}
        returnUrl={props.returnUrl}
        submitLabel={props.submitLabel}
        busyLabel={props.busyLabel}
      />
    </Elements>
  );
}

function CardForm({
  onSucceeded,
  onProcessing,
  returnUrl,
  submitLabel,
  busyLabel,
}: {
  onSucceeded: () => Promise<void>;
  onProcessing?: () => void;
  returnUrl: string;
  submitLabel: string;
  busyLabel: string;
}) {
  const stripe = useStripe();
  const elements = useElements();
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements || busy) return;
    setBusy(true);
    const { error, setupIntent } = await stripe.confirmSetup({
      elements,
      redirect: 'if_required',
      confirmParams: { return_url: returnUrl },
    });
    if (error) {
      toast(setupNotices.paymentFailed(error.message ?? 'Please try again.'));
      setBusy(false);
      return;
    }
    if (setupIntent?.status === 'processing' && onProcessing) {
      onProcessing();
      return;
    }
    const notice = noticeForSetupResult({ status: setupIntent?.status ?? 'unknown' });
    if (notice) {
      toast(notice);
      setBusy(false);
      return;
    }
    await onSucceeded();
  };

  return (
    <form className="stack" onSubmit={(event) => void onSubmit(event)} aria-label="Card form">
      <PaymentElement />
      <Button type="submit" block disabled={!stripe || busy}>
        {busy ? busyLabel : submitLabel}
      </Button>
    </form>
  );
}
