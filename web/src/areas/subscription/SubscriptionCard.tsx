/**
 * Settings → Subscription: status dot, label and description, the card on file and changing it (the payment
 * page's own form, in change mode), past invoices, cancel (confirmed in a dialog that names the day access ends; then the
 * support e-mail) and reactivate.
 */
import { useMutation, useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useSession } from '../../gating/useSession';
import {
  CancelMySubscriptionDocument,
  MyInvoicesDocument,
  PaymentMethodOnFileDocument,
  ReactivateMySubscriptionDocument,
} from '../../graphql/operations.generated';
import { navigateToServer } from '../../lib/navigation';
import { Button } from '../../ui/Button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { toast } from '../../ui/Toast';
import { PaymentSetup, useCardChangeReturn } from './PaymentSetup';
import { changeProcessingTexts } from './paymentSetup';
import {
  cancellationConfirmation,
  cancellationMailto,
  cardOnFileLine,
  invoiceRow,
  invoiceTexts,
  mayChangeCard,
  subscriptionActions,
} from './subscriptionCard';
import { subscriptionDescription, subscriptionDotColour, subscriptionPlanLabel } from './subscriptionStatus';

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : 'Please try again.');

export function SubscriptionCard() {
  const session = useSession();
  const [cancel] = useMutation(CancelMySubscriptionDocument);
  const [reactivate] = useMutation(ReactivateMySubscriptionDocument);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [changingCard, setChangingCard] = useState(false);
  const signedIn = session.status === 'signedIn';
  const cardQuery = useQuery(PaymentMethodOnFileDocument, { skip: !signedIn, fetchPolicy: 'cache-and-network' });
  const invoicesQuery = useQuery(MyInvoicesDocument, { skip: !signedIn, fetchPolicy: 'cache-and-network' });
  const refetchSubscription = signedIn ? session.refetchSubscription : null;
  // A new card's bank check started here returns here: the card line, invoices and status are read again.
  useCardChangeReturn(
    'settings',
    refetchSubscription &&
      (async () => {
        await Promise.all([cardQuery.refetch(), invoicesQuery.refetch(), refetchSubscription()]);
      }),
  );
  if (!signedIn) return null;
  const status = session.subscription;
  const card = cardQuery.data?.me?.paymentMethod ?? null;
  const invoices = invoicesQuery.data?.me?.invoices ?? null;

  const afterCardChange = async () => {
    setChangingCard(false);
    // A new card may pay the failed payment's invoice.
    await Promise.all([cardQuery.refetch(), invoicesQuery.refetch(), session.refetchSubscription()]);
  };

  const onCancel = async () => {
    setBusy(true);
    navigateToServer(cancellationMailto(session.user));
    try {
      const { data } = await cancel();
      toast({
        title: 'Subscription cancelled',
        description: `Cancellation email opened. ${data?.cancelSubscription.message ?? ''}`.trim(),
      });
      await session.refetchSubscription();
    } catch (error) {
      toast({ title: 'Cancellation failed', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };

  const onReactivate = async () => {
    setBusy(true);
    try {
      const { data } = await reactivate();
      toast({ title: 'Subscription reactivated', description: data?.reactivateSubscription.message });
      await session.refetchSubscription();
    } catch (error) {
      toast({ title: 'Reactivation failed', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  const actions = status ? subscriptionActions(status) : { cancel: false, reactivate: false };
  return (
    <Card aria-labelledby="subscription-card-title">
      <CardHeader>
        <CardTitle id="subscription-card-title">Subscription</CardTitle>
        <CardDescription>
          To cancel, we open an e-mail to our support team for you and stop the renewal.
        </CardDescription>
      </CardHeader>
      <CardContent className="stack">
        {!status ? (
          <p role="status">
            {session.subscriptionCheck === 'loading' ? 'Loading...' : "We couldn't load your subscription just now."}
          </p>
        ) : (
          <div className="status-row">
            <span className={`status-dot status-dot--${subscriptionDotColour(status)}`} aria-hidden="true" />
            <span className="account__name">{subscriptionPlanLabel(status)}</span>
            <span className="text-muted">{subscriptionDescription(status)}</span>
          </div>
        )}
        {status && card && (
          <p className="text-muted" data-testid="card-on-file">
            {cardOnFileLine(card, status)}
          </p>
        )}
        {status && card && cardQuery.data?.me?.cardChangeStatus === 'processing' && !changingCard && (
          <p role="status" data-testid="card-change-pending">
            {changeProcessingTexts.pending}
          </p>
        )}
        {status &&
          card &&
          mayChangeCard(status) &&
          (changingCard ? (
            <PaymentSetup
              mode="change"
              retriesPayment={status.status === 'payment_failed'}
              onBack={() => setChangingCard(false)}
              afterSuccess={afterCardChange}
            />
          ) : (
            <Button variant="outline" onClick={() => setChangingCard(true)} disabled={busy}>
              Change card
            </Button>
          ))}
        <section aria-labelledby="invoices-title" data-testid="invoices">
          <h3 id="invoices-title" className="account__name">
            {invoiceTexts.heading}
          </h3>
          {invoices === null ? (
            invoicesQuery.error ? (
              <p className="text-muted">{invoiceTexts.loadFailed}</p>
            ) : (
              <p className="text-muted">Loading...</p>
            )
          ) : invoices.length === 0 ? (
            <p className="text-muted">{invoiceTexts.none}</p>
          ) : (
            <ul className="stack">
              {invoices.map((invoice) => {
                const row = invoiceRow(invoice);
                return (
                  <li key={invoice.id} className="status-row" data-testid="invoice-row">
                    <span>{row.date}</span>
                    <span>{row.amount}</span>
                    <span className="text-muted">{row.status}</span>
                    {row.hostedInvoiceUrl && (
                      <a
                        href={row.hostedInvoiceUrl}
                        target="_blank"
                        rel="noopener noreferrer"
                        aria-label={`${invoiceTexts.view} of ${row.date} (opens in a new tab)`}
                      >
                        {invoiceTexts.view}
                      </a>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
        </section>
        {actions.cancel && (
          <Button variant="outline" onClick={() => setConfirming(true)} disabled={busy}>
            Cancel Subscription
          </Button>
        )}
        {status && (
          <ConfirmDialog
            open={confirming}
            busy={busy}
            onOpenChange={setConfirming}
            onConfirm={() => void onCancel()}
            {...cancellationConfirmation(status)}
            cancelLabel="Keep my plan"
            confirmLabel="Cancel subscription"
            confirmVariant="primary"
          />
        )}
        {actions.reactivate && (
          <Button onClick={() => void onReactivate()} disabled={busy}>
            Reactivate Subscription
          </Button>
        )}
        {status?.needsSetup && <Link to="/subscription">Set up your subscription</Link>}
      </CardContent>
    </Card>
  );
}
