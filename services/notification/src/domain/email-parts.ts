/** What every e-mail is made of: escaping for its HTML part, and its closing care line. Pure, no I/O. */

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

export function careFooterText(productName: string, appUrl: string): string {
  return `${wording(productName)} ${helpPageLink(appUrl)}`;
}

export function careFooterHtml(productName: string, appUrl: string): string {
  const link = escapeHtml(helpPageLink(appUrl));
  return `<p style="font-size:12px;color:#6b7280">${escapeHtml(wording(productName))} <a href="${link}">${link}</a></p>`;
}
