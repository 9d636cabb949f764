/**
 * A signed-in user with a subscription, for tests of paid operations: starts a 3-day trial through the
 * REST facade with the local test-mode provider's good card, then waits (bounded) until a paid operation
 * would be allowed, i.e. until the subscription status says so.
 */
import { eventually } from './eventually';
import { ApiClient, uniqueEmail } from './http';
import { mailbox, type CaughtEmail } from './infra-control';

export const goodTestCard = '4242 4242 4242 4242';
export const declinedTestCard = '4000 0000 0000 0002';
/** The bank asks the person to confirm this card (3-D Secure) before the setup succeeds. */
export const authenticationTestCard = '4000 0027 6000 3184';

export async function startTrial(client: ApiClient): Promise<void> {
  const setup = await client.post<{ clientSecret: string }>('/api/create-setup-intent');
  if (setup.status !== 200)
    throw new Error(`create-setup-intent answered ${setup.status}: ${JSON.stringify(setup.body)}`);
  const confirmed = await client.post<{ status: string }>('/api/local-payments/confirm-setup', {
    clientSecret: setup.body.clientSecret,
    cardNumber: goodTestCard,
  });
  if (confirmed.body.status !== 'succeeded')
    throw new Error(`the test card was not accepted: ${JSON.stringify(confirmed.body)}`);
  const created = await client.post('/api/create-subscription-after-setup');
  if (created.status !== 200) throw new Error(`create-subscription-after-setup answered ${created.status}`);
  // Services with paid operations confirm a missing grant with billing, so billing's record is what counts.
  await eventually('the new trial opening the paid features', async () => {
    const status = await client.get<{ status: string; needsSetup: boolean }>('/api/subscription-status');
    return status.body.status === 'trialing' && !status.body.needsSetup;
  });
}

/** A person signed up (not yet subscribed) through the REST facade, with their own client. */
export async function signedUpPerson(
  gatewayUrl: string,
  name: string,
  email = uniqueEmail(name),
): Promise<{ client: ApiClient; userId: string }> {
  const client = new ApiClient(gatewayUrl);
  const registered = await client.post<{ user: { id: string } }>('/api/auth/register', {
    email,
    password: 'a long enough password',
    firstName: 'Sam',
  });
  if (registered.status !== 201) throw new Error(`register answered ${registered.status}`);
  return { client, userId: registered.body.user.id };
}

/** A card setup for `purpose`, confirmed with `cardNumber` through the local test-mode provider's form. */
export async function confirmedLocalSetup(
  client: ApiClient,
  cardNumber: string,
  purpose: 'START' | 'CHANGE_CARD',
): Promise<void> {
  const setup = await client.graphql<{ createSetupIntent: { clientSecret: string } }>(
    'mutation($purpose: SetupPurpose) { createSetupIntent(purpose: $purpose) { clientSecret } }',
    { purpose },
  );
  if (setup.body.errors) throw new Error(`createSetupIntent failed: ${JSON.stringify(setup.body.errors)}`);
  const confirmed = await client.post<{ status: string }>('/api/local-payments/confirm-setup', {
    clientSecret: setup.body.data!.createSetupIntent.clientSecret,
    cardNumber,
  });
  if (confirmed.body.status !== 'succeeded') {
    throw new Error(`the card was not accepted: ${JSON.stringify(confirmed.body)}`);
  }
}

/** A person subscribed with `cardNumber` on the local provider (a trial the first time). */
export async function subscribedWithCard(gatewayUrl: string, cardNumber: string, name: string) {
  const person = await signedUpPerson(gatewayUrl, name);
  await confirmedLocalSetup(person.client, cardNumber, 'START');
  const created = await person.client.post('/api/create-subscription-after-setup');
  if (created.status !== 200) throw new Error(`create-subscription-after-setup answered ${created.status}`);
  return person;
}

/** A date as Haven's billing e-mails write it ("3 December 2026", in UTC), from epoch seconds. */
export function billingEmailDate(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** The billing e-mail to `address` whose subject is `subject`, from the mail catcher (polled, bounded). */
export function billingEmailTo(address: string, subject: string): Promise<CaughtEmail> {
  return mailbox().waitForEmail(
    (email) => email.to.some((to) => to.address.toLowerCase() === address.toLowerCase()) && email.subject === subject,
    { to: address.toLowerCase(), what: `the e-mail "${subject}" to ${address}` },
  );
}
