/** The verification e-mail: pure rendering, no I/O. */
import { appLink, careFooterHtml, careFooterText, escapeHtml, type RenderedEmail } from './email-parts';

export interface VerificationEmailInput {
  productName: string;
  appUrl: string;
  token: string;
  firstName: string;
  /** A new account's address (the default), or the new address of an existing account. */
  kind?: 'verify-email' | 'verify-new-email';
}

export const verificationLink = (appUrl: string, token: string) => appLink(appUrl, 'verify-email', token);

const newAccount = (productName: string) => ({
  intro: `Thanks for joining ${productName}.`,
  ifNotYou: 'If you did not create an account, you can ignore this email.',
});
const newAddress = (productName: string) => ({
  intro: `You asked to use this address for your ${productName} account.`,
  ifNotYou: 'If you did not ask for this, you can ignore this email: the account keeps its current address.',
});

export function renderVerificationEmail({
  productName,
  appUrl,
  token,
  firstName,
  kind = 'verify-email',
}: VerificationEmailInput): RenderedEmail {
  const link = verificationLink(appUrl, token);
  const greeting = firstName ? `Hi ${firstName},` : 'Hi,';
  const subject = `Verify your email for ${productName}`;
  const words = kind === 'verify-email' ? newAccount(productName) : newAddress(productName);
  const text = [
    greeting,
    '',
    `${words.intro} Please confirm your email address by opening this link:`,
    link,
    '',
    `The link is valid for 24 hours. ${words.ifNotYou}`,
    '',
    careFooterText(productName, appUrl, kind),
  ].join('\n');
  const html = `<!doctype html>
<html lang="en"><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#1f2937;line-height:1.5">
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(words.intro)} Please confirm your email address:</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 18px;background:#4f46e5;color:#fff;border-radius:8px;text-decoration:none">Verify my email</a></p>
<p style="font-size:13px;color:#6b7280">Or paste this link into your browser: ${escapeHtml(link)}<br>The link is valid for 24 hours. ${escapeHtml(words.ifNotYou)}</p>
${careFooterHtml(productName, appUrl, kind)}
</body></html>`;
  return { subject, text, html };
}
