/** The e-mail verification link, as a test reads it from the mail catcher and uses it. */
import { mailbox, type CaughtEmail } from './infra-control';

/** A verification e-mail sent to `address`; with `otherThan`, one whose link carries another token. */
export async function verificationEmailTo(address: string, otherThan?: string): Promise<CaughtEmail> {
  return mailbox().waitForEmail(
    (email) =>
      email.to.some((to) => to.address.toLowerCase() === address.toLowerCase()) &&
      /verify your email/i.test(email.subject) &&
      (otherThan === undefined || verificationTokenIn(email) !== otherThan),
    { what: `the verification e-mail to ${address}${otherThan ? ' with a new link' : ''}` },
  );
}

/** The link's `token` query parameter, read from the e-mail's plain text. */
export function verificationTokenIn(email: CaughtEmail): string {
  const link = /https?:\/\/\S+\/verify-email\?token=[\w-]+/.exec(email.text ?? '')?.[0];
  if (!link) throw new Error(`no verification link in "${email.subject}"`);
  return new URL(link).searchParams.get('token')!;
}

/** Opens the address's verification link through the REST facade, as the /verify-email page does. */
export async function verifyByEmailLink(gatewayUrl: string, address: string): Promise<void> {
  const token = verificationTokenIn(await verificationEmailTo(address));
  const response = await fetch(`${gatewayUrl}/api/auth/verify-email?token=${token}`);
  if (response.status !== 200) throw new Error(`verifying ${address} answered ${response.status}`);
}
