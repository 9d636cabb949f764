/**
 * Billing's e-mails: welcome when a trial starts, a reminder about a day before it ends (billing schedules
 * it), and a notice when a payment fails. They are account e-mails about money, so they always go, whatever
 * the marketing preferences say. The texts are pure (renderBillingEmail); the consumer sends each once.
 */
import { timestampDate, topicOf, type SubscriptionChange } from '@haven/proto';
import type { ConsumerSpec } from '@haven/platform';
import { careFooterHtml, careFooterText, escapeHtml, type RenderedEmail } from '../domain/email-parts';
import type { EmailKind } from '../domain/email-kinds';
import type { Mailer } from './mailer';

export type BillingEmailKind = Extract<EmailKind, `billing-${string}`>;

const dateOf = (date: Date | null) =>
  date ? date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }) : '';

export function renderBillingEmail(
  kind: BillingEmailKind,
  input: { productName: string; appUrl: string; firstName: string; trialEnd: Date | null },
): RenderedEmail {
  const greeting = input.firstName ? `Hi ${input.firstName},` : 'Hi,';
  const settings = new URL('settings', input.appUrl.endsWith('/') ? input.appUrl : `${input.appUrl}/`).toString();
  const subscription = new URL(
    'subscription',
    input.appUrl.endsWith('/') ? input.appUrl : `${input.appUrl}/`,
  ).toString();
  const texts: Record<BillingEmailKind, { subject: string; lines: string[]; link: string; button: string }> = {
    'billing-welcome': {
      subject: `Welcome to ${input.productName} Premium`,
      lines: [
        `Your 3-day free trial has started, and everything in ${input.productName} is open to you.`,
        `The trial ends on ${dateOf(input.trialEnd)}. After that, Premium is £4.99 a month, charged to the card you added, unless you cancel before then in Settings.`,
        'A good first step: a one-minute check-in, whenever suits you.',
      ],
      link: input.appUrl,
      button: `Open ${input.productName}`,
    },
    'billing-trial-ending': {
      subject: `Your ${input.productName} trial ends tomorrow`,
      lines: [
        `Your free trial ends on ${dateOf(input.trialEnd)}.`,
        'If you do nothing, Premium continues at £4.99 a month, charged to the card you added. If you would rather stop, you can cancel in Settings before then and you will not be charged.',
      ],
      link: settings,
      button: 'Review my subscription',
    },
    'billing-payment-failed': {
      subject: `We couldn't take your ${input.productName} payment`,
      lines: [
        'Your payment could not be processed, so Premium is paused for now. Your check-ins and quotes are safe.',
        'To carry on, please update your payment method on the Subscription page.',
      ],
      link: subscription,
      button: 'Update payment method',
    },
  };
  const { subject, lines, link, button } = texts[kind];
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

export function billingEmailConsumer(deps: { mailer: Mailer; appUrl: string; productName: string }): ConsumerSpec {
  const send =
    (kind: BillingEmailKind) =>
    async (event: SubscriptionChange, { eventId }: { eventId: string }) => {
      if (!event.email) return; // billing did not know the address: nothing to send to
      const email = renderBillingEmail(kind, {
        productName: deps.productName,
        appUrl: deps.appUrl,
        firstName: event.firstName,
        trialEnd: event.trialEnd ? timestampDate(event.trialEnd) : null,
      });
      await deps.mailer.deliverOnce({ eventId, kind, userId: event.userId, to: event.email, email });
    };
  return {
    groupId: 'notification-billing',
    topics: [topicOf('billing')],
    handlers: {
      'billing.trial_started': send('billing-welcome'),
      'billing.trial_will_end': send('billing-trial-ending'),
      'billing.payment_failed': send('billing-payment-failed'),
    },
  };
}
