/**
 * What every e-mail is made of: escaping for its HTML part, and its footer (the care line, why the e-mail came
 * and the way to the e-mail preferences). Pure, no I/O.
 */
import { createHash } from 'node:crypto';
import { whySent, type EmailKind } from './email-kinds';

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
  /** Extra headers (the newsletter's List-Unsubscribe pair). */
  headers?: Record<string, string>;
}

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => escapes[char]!);
}

/**
 * The line every e-mail ends with: what Haven is, and where help is. An e-mail does not know where its reader
 * is, so it names no country's number (a number for the wrong country is worse than none): it links the
 * "Need help now?" page, which lists the lines for every country, without signing in.
 */
export function helpPageLink(appUrl: string): string {
  return appLink(appUrl, 'help');
}

/**
 * A link to one of the app's pages, with the e-mail's token when it carries one. The path is relative, so an
 * app served under a path (`https://example.org/haven`) keeps it.
 */
export function appLink(appUrl: string, path: string, token?: string): string {
  const url = new URL(path, appUrl.endsWith('/') ? appUrl : `${appUrl}/`);
  if (token !== undefined) url.searchParams.set('token', token);
  return url.toString();
}

const wording = (productName: string) =>
  `${productName} is a wellness companion, not therapy. If things feel like too much right now, you can talk to someone today: free helplines for where you are, at`;

const choosePreferences = 'Choose which emails you get';

/** The footer's plain-text lines: why the e-mail came with the way to the preferences, then the care line. */
export function careFooterText(productName: string, appUrl: string, kind: EmailKind): string {
  return [
    `${whySent[kind]} ${choosePreferences}: ${appLink(appUrl, 'email-preferences')}`,
    `${wording(productName)} ${helpPageLink(appUrl)}`,
  ].join('\n');
}

export function careFooterHtml(productName: string, appUrl: string, kind: EmailKind): string {
  const small = 'font-size:12px;color:#6b7280';
  const help = escapeHtml(helpPageLink(appUrl));
  const preferences = escapeHtml(appLink(appUrl, 'email-preferences'));
  return `<p style="${small}">${escapeHtml(whySent[kind])} <a href="${preferences}">${choosePreferences}</a>.</p>
<p style="${small}">${escapeHtml(wording(productName))} <a href="${help}">${help}</a></p>`;
}

/**
 * One Message-ID per delivery (event, kind of e-mail, recipient), from the sender's domain: a copy sent
 * again after a lost claim is recognisably the same message to the mail server and the reader's client.
 */
export function messageIdOf(deliveryId: string, from: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'haven.local';
  return `<${createHash('sha256').update(deliveryId).digest('base64url').slice(0, 32)}@${domain}>`;
}
