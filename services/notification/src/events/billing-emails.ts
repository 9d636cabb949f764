/**
 * Billing's e-mails: welcome when a trial starts, a reminder about a day before it ends (billing schedules
 * it), a notice when a payment fails, a confirmation when a subscription is cancelled or reactivated or its card
 * is changed, a receipt for every successful charge, and a note when a subscription has ended (its cancelled
 * period over, or its payment retries run out). They are account e-mails about money, so they always go, whatever the
 * marketing preferences say. The texts are pure (renderBillingEmail); the consumer sends each once.
 */
import { timestampDate, topicOf, type SubscriptionChange } from '@haven/proto';
import type { ConsumerSpec } from '@haven/platform';
import { appLink, careFooterHtml, careFooterText, escapeHtml, type RenderedEmail } from '../domain/email-parts';
import type { EmailKind } from '../domain/email-kinds';
import type { Mailer } from '../providers/mailer';

export type BillingEmailKind = Extract<EmailKind, `billing-${string}`>;

/** A successful payment, as billing's event carries it. */
export interface ChargeDetails {
  /** In the currency's minor unit, VAT included. */
  amountMinor: number;
  currency: string;
  planName: string;
  chargedAt: Date;
}

export interface BillingEmailInput {
  productName: string;
  appUrl: string;
  firstName: string;
  trialEnd: Date | null;
  /** Whether the subscription is still in its free trial after the change. */
  trialing?: boolean;
  /** When access ends after a cancellation: the trial's end, or the end of the period paid for. */
  accessEnds?: Date | null;
  /** The end of the period paid for: when the next charge falls, unless cancelled. */
  currentPeriodEnd?: Date | null;
  charge?: ChargeDetails | null;
}

const dateOf = (date: Date | null | undefined) =>
  date ? date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }) : '';

/** "£4.99" from 499 pence. */
export function formatAmount(amountMinor: number, currency: string): string {
  return new Intl.NumberFormat('en-GB', { style: 'currency', currency: currency.toUpperCase() }).format(
    amountMinor / 100,
  );
}

/** The plan's monthly price, as the welcome and reminder e-mails have always named it. */
const monthlyPrice = '£4.99';

export function renderBillingEmail(kind: BillingEmailKind, input: BillingEmailInput): RenderedEmail {
  const greeting = input.firstName ? `Hi ${input.firstName},` : 'Hi,';
  const settings = appLink(input.appUrl, 'settings');
  const subscription = appLink(input.appUrl, 'subscription');
  const texts: Record<BillingEmailKind, () => { subject: string; lines: string[]; link: string; button: string }> = {
    'billing-welcome': () => ({
      subject: `Welcome to ${input.productName} Premium`,
      lines: [
        `Your 3-day free trial has started, and everything in ${input.productName} is open to you.`,
        `The trial ends on ${dateOf(input.trialEnd)}. After that, Premium is ${monthlyPrice} a month, charged to the card you added, unless you cancel before then in Settings.`,
        'A good first step: a one-minute check-in, whenever suits you.',
      ],
      link: input.appUrl,
      button: `Open ${input.productName}`,
    }),
    'billing-trial-ending': () => ({
      subject: `Your ${input.productName} trial ends tomorrow`,
      lines: [
        `Your free trial ends on ${dateOf(input.trialEnd)}.`,
        `If you do nothing, Premium continues at ${monthlyPrice} a month, charged to the card you added. If you would rather stop, you can cancel in Settings before then and you will not be charged.`,
      ],
      link: settings,
      button: 'Review my subscription',
    }),
    'billing-payment-failed': () => ({
      subject: `We couldn't take your ${input.productName} payment`,
      lines: [
        'Your payment could not be processed, so Premium is paused for now. Your check-ins and quotes are safe.',
        'To carry on, please update your payment method on the Subscription page.',
      ],
      link: subscription,
      button: 'Update payment method',
    }),
    'billing-cancelled': () => {
      const ends = dateOf(input.accessEnds);
      return {
        subject: `Your ${input.productName} Premium subscription is cancelled`,
        lines: [
          input.trialing
            ? `You cancelled your subscription. Your free trial stays open until ${ends}, and you will not be charged.`
            : `You cancelled your subscription. Premium stays open until ${ends}, and you will not be charged again.`,
          'After that, your check-ins and quotes stay in your account, for whenever you want them.',
          `If you change your mind, you can reactivate in Settings any time before ${ends}.`,
        ],
        link: settings,
        button: 'Manage my subscription',
      };
    },
    'billing-reactivated': () => ({
      subject: `Your ${input.productName} Premium subscription is back on`,
      lines: [
        input.trialing
          ? `Your subscription is on again. Your free trial continues until ${dateOf(input.trialEnd)}; after that, Premium is ${monthlyPrice} a month, charged to the card you added.`
          : `Your subscription is on again. Premium renews on ${dateOf(input.currentPeriodEnd)} at ${monthlyPrice} a month, charged to the card you added.`,
        'You can cancel in Settings at any time.',
      ],
      link: settings,
      button: 'Review my subscription',
    }),
    'billing-card-updated': () => ({
      subject: `Your ${input.productName} card has been changed`,
      lines: [
        input.trialing
          ? `The card for your ${input.productName} Premium subscription has been changed. Nothing is charged during your free trial; from ${dateOf(input.trialEnd)}, Premium is ${monthlyPrice} a month, charged to the new card.`
          : input.currentPeriodEnd
            ? `The card for your ${input.productName} Premium subscription has been changed. Your next payment, on ${dateOf(input.currentPeriodEnd)}, goes to the new card.`
            : `The card for your ${input.productName} Premium subscription has been changed. Your next payment goes to the new card.`,
        'If you did not make this change, please change your password and look over your subscription in Settings.',
      ],
      link: subscription,
      button: 'Review my subscription',
    }),
    'billing-ended': () => ({
      subject: `Your ${input.productName} Premium subscription has ended`,
      lines: [
        'Your Premium subscription has ended, so the Premium features are closed for now, and nothing more will be charged.',
        'Your check-ins, notes and saved quotes stay in your account, for whenever you want them.',
        'If you would like Premium again, you can subscribe on the Subscription page at any time.',
      ],
      link: subscription,
      button: 'View my subscription',
    }),
    'billing-receipt': () => {
      const charge = input.charge;
      const amount = charge ? formatAmount(charge.amountMinor, charge.currency) : '';
      return {
        subject: `Your ${input.productName} receipt: ${amount}`,
        lines: [
          'Thank you, your payment went through. Here is your receipt.',
          `Plan: ${charge?.planName ?? `${input.productName} Premium`}, monthly`,
          `Amount: ${amount} (including VAT)`,
          `Date: ${dateOf(charge?.chargedAt)}`,
          ...(input.currentPeriodEnd
            ? [`Your next payment is on ${dateOf(input.currentPeriodEnd)}, unless you cancel before then in Settings.`]
            : []),
        ],
        link: subscription,
        button: 'View my subscription',
      };
    },
  };
  const { subject, lines, link, button } = texts[kind]();
  const footer = careFooterText(input.productName, input.appUrl, kind);
  const text = [greeting, '', ...lines.flatMap((line) => [line, '']), link, '', footer].join('\n');
  const html = `<!doctype html>
<html lang="en"><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#1f2937;line-height:1.5">
<p>${escapeHtml(greeting)}</p>
${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n')}
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 18px;background:#4f46e5;color:#fff;border-radius:8px;text-decoration:none">${escapeHtml(button)}</a></p>
${careFooterHtml(input.productName, input.appUrl, kind)}
</body></html>`;
  return { subject, text, html };
}

/** What the e-mails read from a subscription event (event-carried state: no call back to billing). */
export function billingEmailInputOf(
  event: SubscriptionChange,
  deps: { productName: string; appUrl: string },
): BillingEmailInput {
  const date = (timestamp: SubscriptionChange['trialEnd']) => (timestamp ? timestampDate(timestamp) : null);
  const trialing = event.access?.status === 'trialing';
  return {
    productName: deps.productName,
    appUrl: deps.appUrl,
    firstName: event.firstName,
    trialEnd: date(event.trialEnd),
    trialing,
    accessEnds: date(event.access?.validUntil) ?? (trialing ? date(event.trialEnd) : date(event.currentPeriodEnd)),
    currentPeriodEnd: date(event.currentPeriodEnd),
    charge: event.charge
      ? {
          amountMinor: Number(event.charge.amountMinor),
          currency: event.charge.currency,
          planName: event.charge.planName,
          chargedAt: date(event.charge.chargedAt) ?? new Date(0),
        }
      : null,
  };
}

/**
 * Sends billing's e-mails from its events. An account being deleted gets none: billing publishes no event for
 * the deletion's own cancellation, and its erasure drops the events it has not published yet.
 */
export function billingEmailConsumer(deps: { mailer: Mailer; appUrl: string; productName: string }): ConsumerSpec {
  const send =
    (kind: BillingEmailKind) =>
    async (event: SubscriptionChange, { eventId, occurredAt }: { eventId: string; occurredAt: Date }) => {
      if (!event.email) return; // billing did not know the address: nothing to send to
      // A charge event from before receipts carried no amount: no receipt rather than one without it.
      if (kind === 'billing-receipt' && !event.charge) return;
      const email = renderBillingEmail(kind, billingEmailInputOf(event, deps));
      await deps.mailer.deliverOnce({ eventId, occurredAt, kind, userId: event.userId, to: event.email, email });
    };
  return {
    groupId: 'notification-billing',
    topics: [topicOf('billing')],
    handlers: {
      'billing.trial_started': send('billing-welcome'),
      'billing.trial_will_end': send('billing-trial-ending'),
      'billing.payment_failed': send('billing-payment-failed'),
      'billing.canceled': send('billing-cancelled'),
      'billing.reactivated': send('billing-reactivated'),
      'billing.activated': send('billing-receipt'),
      'billing.renewed': send('billing-receipt'),
      'billing.payment_method_updated': send('billing-card-updated'),
      'billing.ended': send('billing-ended'),
    },
  };
}
