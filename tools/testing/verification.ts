/** The e-mail verification link, as a test reads it from the mail catcher and uses it. */
import { ApiClient } from './http';
import { mailbox, type CaughtEmail } from './infra-control';

/** A verification e-mail sent to `address`; with `otherThan`, one whose link carries another token. */
export async function verificationEmailTo(address: string, otherThan?: string): Promise<CaughtEmail> {
  return mailbox().waitForEmail(
    (email) =>
      email.to.some((to) => to.address.toLowerCase() === address.toLowerCase()) &&
      /verify your email/i.test(email.subject) &&
      (otherThan === undefined || verificationTokenIn(email) !== otherThan),
    {
      to: address.toLowerCase(),
      what: `the verification e-mail to ${address}${otherThan ? ' with a new link' : ''}`,
    },
  );
}

/** The link's `token` query parameter, read from the e-mail's plain text. */
export function verificationTokenIn(email: CaughtEmail): string {
  const link = /https?:\/\/\S+\/verify-email\?token=[\w-]+/.exec(email.text ?? '')?.[0];
  if (!link) throw new Error(`no verification link in "${email.subject}"`);
  return new URL(link).searchParams.get('token')!;
}

/** A browser page or context: its `request` shares the browser's cookies (Playwright's APIRequestContext). */
export interface BrowserRequests {
  request: { get(url: string): Promise<{ status(): number }> };
}

/**
 * Opens the address's verification link through the REST facade, as the /verify-email page does. Verifying ends
 * every session the account had; opened in the browser (or client) that registered, that browser gets a fresh
 * session and stays signed in, as a person who registers and then opens the e-mail there does. Opened nowhere
 * (`openedIn` absent), nobody is signed in by it, and the password chosen before stays unconfirmed.
 */
export async function verifyByEmailLink(
  gatewayUrl: string,
  address: string,
  openedIn?: ApiClient | BrowserRequests,
): Promise<void> {
  const token = verificationTokenIn(await verificationEmailTo(address));
  const path = `/api/auth/verify-email?token=${token}`;
  const status = !openedIn
    ? (await fetch(`${gatewayUrl}${path}`)).status
    : openedIn instanceof ApiClient
      ? (await openedIn.get(path)).status
      : (await openedIn.request.get(`${gatewayUrl}${path}`)).status();
  if (status !== 200) throw new Error(`verifying ${address} answered ${status}`);
}
