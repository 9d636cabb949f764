/** The verification e-mail: pure rendering, no I/O. */
import { appLink, careFooterHtml, careFooterText, escapeHtml, type RenderedEmail } from './email-parts';

export interface VerificationEmailInput {
  productName: string;
  appUrl: string;
  token: string;
  firstName: string;
}

export const verificationLink = (appUrl: string, token: string) => appLink(appUrl, 'verify-email', token);

export function renderVerificationEmail({
  productName,
  appUrl,
  token,
  firstName,
}: VerificationEmailInput): RenderedEmail {
  const link = verificationLink(appUrl, token);
  const greeting = firstName ? `Hi ${firstName},` : 'Hi,';
  const subject = `Verify your email for ${productName}`;
  const text = [
    greeting,
    '',
    `Thanks for joining ${productName}. Please confirm your email address by opening this link:`,
    link,
    '',
    'The link is valid for 24 hours. If you did not create an account, you can ignore this email.',
    '',
    careFooterText(productName, appUrl),
  ].join('\n');
  const html = `<!doctype html>
<html lang="en"><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#1f2937;line-height:1.5">
<p>${escapeHtml(greeting)}</p>
<p>Thanks for joining ${escapeHtml(productName)}. Please confirm your email address:</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 18px;background:#4f46e5;color:#fff;border-radius:8px;text-decoration:none">Verify my email</a></p>
<p style="font-size:13px;color:#6b7280">Or paste this link into your browser: ${escapeHtml(link)}<br>The link is valid for 24 hours. If you did not create an account, you can ignore this email.</p>
${careFooterHtml(productName, appUrl)}
</body></html>`;
  return { subject, text, html };
}
