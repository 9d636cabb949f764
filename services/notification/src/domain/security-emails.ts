/** The account's security e-mails and the password reset e-mail: pure rendering, no I/O. */
import type { EmailKind } from './email-kinds';
import { appLink, careFooterHtml, careFooterText, escapeHtml, type RenderedEmail } from './email-parts';

export const passwordResetLink = (appUrl: string, token: string) => appLink(appUrl, 'reset-password', token);

function page(
  kind: EmailKind,
  paragraphs: string[],
  input: SecurityEmailInput,
  action?: { label: string; href: string },
): string {
  const body = paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`).join('\n');
  const button = action
    ? `<p><a href="${escapeHtml(action.href)}" style="display:inline-block;padding:10px 18px;background:#4f46e5;color:#fff;border-radius:8px;text-decoration:none">${escapeHtml(action.label)}</a></p>
<p style="font-size:13px;color:#6b7280">Or paste this link into your browser: ${escapeHtml(action.href)}</p>`
    : '';
  return `<!doctype html>
<html lang="en"><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#1f2937;line-height:1.5">
${body}
${button}
${careFooterHtml(input.productName, input.appUrl, kind)}
</body></html>`;
}

export interface SecurityEmailInput {
  productName: string;
  appUrl: string;
  firstName: string;
}

const greeting = (firstName: string) => (firstName ? `Hi ${firstName},` : 'Hi,');

/** Sent whatever the preferences say: the person asked for it. */
export function renderPasswordResetEmail(input: SecurityEmailInput & { token: string }): RenderedEmail {
  const link = passwordResetLink(input.appUrl, input.token);
  const lines = [
    greeting(input.firstName),
    `Someone asked to reset the password of your ${input.productName} account. If it was you, open this link to choose a new one:`,
  ];
  const after =
    'The link works once, for one hour. If you did not ask, you can ignore this email: your password stays as it is.';
  return {
    subject: `Reset your ${input.productName} password`,
    text: [...lines, link, '', after, '', careFooterText(input.productName, input.appUrl, 'password-reset')].join('\n'),
    html: page('password-reset', [...lines.slice(0, 2), after], input, { label: 'Choose a new password', href: link }),
  };
}

/** A security notice: only while `securityNotifications` is on (the default). */
export function renderPasswordChangedEmail(input: SecurityEmailInput): RenderedEmail {
  const lines = [
    greeting(input.firstName),
    `The password of your ${input.productName} account was just changed, and other devices were signed out.`,
    'If this was you, there is nothing more to do.',
    `If it was not you, please reset your password now from the sign-in page (${input.appUrl.replace(/\/$/, '')}/forgot-password) and reply to this email so we can help.`,
  ];
  return {
    subject: `Your ${input.productName} password was changed`,
    text: [...lines, '', careFooterText(input.productName, input.appUrl, 'password-changed')].join('\n'),
    html: page('password-changed', lines, input),
  };
}

/** A security notice to the *old* address: only while `securityNotifications` is on (the default). */
export function renderEmailChangedEmail(input: SecurityEmailInput & { newEmail: string }): RenderedEmail {
  const lines = [
    greeting(input.firstName),
    `The email address of your ${input.productName} account was changed to ${input.newEmail}. Emails now go there.`,
    'If this was you, there is nothing more to do.',
    'If it was not you, please reply to this email straight away so we can help you get your account back.',
  ];
  return {
    subject: `Your ${input.productName} email address was changed`,
    text: [...lines, '', careFooterText(input.productName, input.appUrl, 'email-changed')].join('\n'),
    html: page('email-changed', lines, input),
  };
}

/**
 * A security notice: Google or the hosted platform can now sign in to the account. Only while
 * `securityNotifications` is on (the default).
 */
export function renderSignInMethodLinkedEmail(input: SecurityEmailInput & { providerName: string }): RenderedEmail {
  const lines = [
    greeting(input.firstName),
    `${input.providerName} sign-in was just linked to your ${input.productName} account. You can now sign in with ${input.providerName} as well as the way you did before.`,
    'If this was you, there is nothing more to do.',
    `If it was not you, please reset your password now (${input.appUrl.replace(/\/$/, '')}/forgot-password) and reply to this email so we can help you.`,
  ];
  return {
    subject: `${input.providerName} sign-in was linked to your ${input.productName} account`,
    text: [...lines, '', careFooterText(input.productName, input.appUrl, 'sign-in-method-linked')].join('\n'),
    html: page('sign-in-method-linked', lines, input),
  };
}
