/** The newsletter's e-mails: the confirmation link and each campaign copy. Pure rendering, no I/O. */
import { appLink, careFooterHtml, careFooterText, escapeHtml, type RenderedEmail } from './email-parts';

export const confirmationLink = (appUrl: string, token: string) => appLink(appUrl, 'confirm-newsletter', token);
export const unsubscribeLink = (appUrl: string, token: string) => appLink(appUrl, 'unsubscribe-newsletter', token);
/** RFC 8058's one-click target: a POST with `List-Unsubscribe=One-Click`, served by this service's httpRoutes. */
export const oneClickLink = (appUrl: string, token: string) =>
  appLink(appUrl, 'hooks/notification/newsletter/one-click', token);

export function renderConfirmationEmail(input: { productName: string; appUrl: string; token: string }): RenderedEmail {
  const link = confirmationLink(input.appUrl, input.token);
  const name = input.productName;
  const subject = `Confirm your ${name} newsletter subscription`;
  const text = [
    'Hi,',
    '',
    `Someone (hopefully you) asked to get the ${name} weekly newsletter at this address. To confirm, open this link:`,
    link,
    '',
    'The link works for 48 hours. If this was not you, ignore this email and nothing will be sent.',
    '',
    careFooterText(name, input.appUrl, 'newsletter-confirmation'),
  ].join('\n');
  const html = `<!doctype html>
<html lang="en"><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#1f2937;line-height:1.5">
<p>Hi,</p>
<p>Someone (hopefully you) asked to get the ${escapeHtml(name)} weekly newsletter at this address.</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 18px;background:#4f46e5;color:#fff;border-radius:8px;text-decoration:none">Confirm my subscription</a></p>
<p style="font-size:13px;color:#6b7280">Or paste this link into your browser: ${escapeHtml(link)}<br>The link works for 48 hours. If this was not you, ignore this email and nothing will be sent.</p>
${careFooterHtml(name, input.appUrl, 'newsletter-confirmation')}
</body></html>`;
  return { subject, text, html };
}

/** A plain-text rendering of sanitised HTML, for the text part. */
export function textOf(html: string): string {
  return html
    .replace(/<\s*br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li)>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * One campaign copy for one recipient: the sanitised content, a personal unsubscribe link, and the
 * List-Unsubscribe headers (RFC 2369 and RFC 8058 one-click).
 */
export function renderNewsletterEmail(input: {
  productName: string;
  appUrl: string;
  subject: string;
  safeHtml: string;
  unsubscribeToken: string;
}): RenderedEmail {
  const unsubscribe = unsubscribeLink(input.appUrl, input.unsubscribeToken);
  const text = [
    textOf(input.safeHtml),
    '',
    '--',
    `Unsubscribe: ${unsubscribe}`,
    careFooterText(input.productName, input.appUrl, 'newsletter'),
  ].join('\n');
  const html = `<!doctype html>
<html lang="en"><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#1f2937;line-height:1.5">
${input.safeHtml}
<hr style="border:none;border-top:1px solid #e5e7eb;margin:24px 0">
<p style="font-size:12px;color:#6b7280"><a href="${escapeHtml(unsubscribe)}">Unsubscribe</a></p>
${careFooterHtml(input.productName, input.appUrl, 'newsletter')}
</body></html>`;
  return {
    subject: input.subject,
    text,
    html,
    headers: {
      'List-Unsubscribe': `<${oneClickLink(input.appUrl, input.unsubscribeToken)}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}
