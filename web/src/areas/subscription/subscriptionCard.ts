/** The Settings subscription card's rules: its actions, the cancellation dialog's words and the support e-mail. Pure. */
import { BRAND } from '../../brand';
import { formatLocalDate, parseIsoDate } from '../../lib/dates';
import { epochSecondsToLocalDate, type SubscriptionStatusLike } from './subscriptionStatus';

export interface CardOnFile {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

/** "Visa ending in 4242, expires 12/2030": the card as people read it on their statement. */
export function cardOnFileLabel(card: CardOnFile): string {
  return `${card.brand} ending in ${card.last4}, expires ${String(card.expMonth).padStart(2, '0')}/${card.expYear}`;
}

/**
 * The line under the plan: the card that pays for it, or, after a failed payment, the card that failed and what
 * changing it does.
 */
export function cardOnFileLine(card: CardOnFile, s: Pick<SubscriptionStatusLike, 'status'>): string {
  return s.status === 'payment_failed'
    ? `Your last payment didn't go through on your ${cardOnFileLabel(card)}. Change the card and we'll try the payment again straight away.`
    : `Card on file: ${cardOnFileLabel(card)}.`;
}

export interface InvoiceLike {
  id: string;
  /** ISO 8601 */
  date: string;
  /** Minor units: 499 is £4.99. */
  amount: number;
  /** e.g. gbp */
  currency: string;
  status: string;
  hostedInvoiceUrl?: string | null;
}

export const invoiceTexts = {
  heading: 'Invoices',
  none: "No invoices yet. They'll show here once your subscription starts.",
  view: 'View invoice',
  loadFailed: "We couldn't load your invoices just now. Please try again later.",
};

/** "£4.99": the amount in the currency's own units (pence become pounds), as a receipt shows it. */
export function invoiceAmount(amount: number, currency: string): string {
  try {
    const format = new Intl.NumberFormat('en-GB', { style: 'currency', currency: currency.toUpperCase() });
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(amount / 10 ** digits);
  } catch {
    // A currency code Intl does not know: the number and the code, still readable.
    return `${(amount / 100).toFixed(2)} ${currency.toUpperCase()}`;
  }
}

/** The invoice's status in words: what it means for the person, not the provider's code. */
export function invoiceStatusLabel(status: string): string {
  const labels: Record<string, string> = {
    paid: 'Paid',
    open: 'Not paid yet',
    draft: 'Not final yet',
    void: 'Cancelled, nothing to pay',
    uncollectible: 'Not paid',
  };
  return labels[status] ?? status.charAt(0).toUpperCase() + status.slice(1);
}

/** One invoice row: the date as the app shows dates, the amount, the status in words. */
export function invoiceRow(
  invoice: InvoiceLike,
  formatDate: (date: Date) => string = formatLocalDate,
): { date: string; amount: string; status: string; hostedInvoiceUrl: string | null } {
  const date = parseIsoDate(invoice.date);
  return {
    date: date ? formatDate(date) : '',
    amount: invoiceAmount(invoice.amount, invoice.currency),
    status: invoiceStatusLabel(invoice.status),
    hostedInvoiceUrl: invoice.hostedInvoiceUrl ?? null,
  };
}

/** A card can be changed while the subscription runs: trialing, active, or retrying a failed payment. */
export function mayChangeCard(s: Pick<SubscriptionStatusLike, 'status'>): boolean {
  return s.status === 'trialing' || s.status === 'active' || s.status === 'payment_failed';
}

/** Cancel while access is open and no cancellation is pending; reactivate while one is. */
export function subscriptionActions(s: SubscriptionStatusLike): { cancel: boolean; reactivate: boolean } {
  return {
    cancel: s.hasActiveSubscription && !s.cancelAtPeriodEnd,
    reactivate: s.hasActiveSubscription && s.cancelAtPeriodEnd,
  };
}

/** The pre-filled cancellation e-mail to support. */
export function cancellationMailto(user: { email: string }, supportEmail: string = BRAND.supportEmail): string {
  const subject = `Cancel my ${BRAND.name} subscription`;
  const body = `Hello,\n\nPlease cancel the ${BRAND.name} Premium subscription for the account ${user.email}.\n\nThank you.`;
  return `mailto:${supportEmail}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}

/**
 * What the cancellation dialog says before anything happens: the day access ends (the trial's end, or the end of
 * the period paid for), that nothing more is charged, the support e-mail it opens, and that the data stays.
 */
export function cancellationConfirmation(
  s: SubscriptionStatusLike,
  formatDate: (epochSeconds: number) => string = epochSecondsToLocalDate,
): { title: string; description: string } {
  const end = s.isTrialing ? s.trialEnd : s.currentPeriodEnd;
  const until = end != null ? `until ${formatDate(end)}` : 'until the end of your current period';
  const access = s.isTrialing
    ? `your free trial stays open ${until}, and you will not be charged`
    : `Premium stays open ${until}, and you will not be charged again`;
  return {
    title: 'Cancel your subscription?',
    description: `If you cancel, ${access}. We will also open an e-mail to our support team for you. Your check-ins and quotes stay in your account, and you can reactivate any time before then.`,
  };
}
