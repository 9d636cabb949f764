/**
 * The single-use tokens of e-mailed links (verification, a resend, password reset, e-mail change, newsletter
 * confirmation, and every other link an e-mail carries) are never at rest where they could be read: after the
 * e-mails are sent, no database document and no Kafka message (dead-letter topics included), read raw, holds one
 * in clear, in hex or in base64. What storage does hold (hashes, sealed tokens, session ids) redeems nothing.
 */
import { decodeEvent, type DecodedEvent } from '@haven/proto';
import { eventually } from '../../../tools/testing/eventually';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { mailbox, type CaughtEmail } from '../../../tools/testing/infra-control';
import { kafkaEnds, messagesSince } from '../../../tools/testing/kafka-messages';
import { tracesOf } from '../../../tools/testing/erasure';
import { watchPublishedEvents, type PublishedEvents } from '../../../tools/testing/published-events';
import { verificationEmailTo, verificationTokenIn, verifyByEmailLink } from '../../../tools/testing/verification';

let haven: TestHaven;
let published: PublishedEvents;
const password = 'a long password for links';

beforeAll(async () => {
  haven = await startTestHaven();
  published = await watchPublishedEvents(['user']);
});

afterAll(async () => {
  await published?.stop();
  await haven?.stop();
});

/** Every `token=` value of every link in an e-mail: plain text, HTML and headers (List-Unsubscribe). */
function linkTokensIn(caught: CaughtEmail): string[] {
  const text = `${caught.text ?? ''}\n${caught.html ?? ''}\n${JSON.stringify(caught.headers)}`;
  return [...text.matchAll(/[?&](?:amp;)?token=([A-Za-z0-9_.~%-]+)/g)].map((match) => decodeURIComponent(match[1]!));
}

/** A token as it could be written down: as is, its bytes in hex and base64, its text in hex and base64. */
function encodingsOf(token: string): string[] {
  const bytes = Buffer.from(token, 'base64url');
  const text = Buffer.from(token, 'utf8');
  const unpadded = (base64: string) => base64.replace(/=+$/, '');
  return [
    token,
    bytes.toString('hex'),
    unpadded(bytes.toString('base64')),
    text.toString('hex'),
    unpadded(text.toString('base64')),
    unpadded(text.toString('base64url')),
  ].filter((encoding) => encoding.length >= 16);
}

async function registered(email: string): Promise<{ client: ApiClient; userId: string }> {
  const client = new ApiClient(haven.gatewayUrl);
  const answer = await client.post<{ user: { id: string } }>('/api/auth/register', { email, password });
  expect(answer.status).toBe(201);
  return { client, userId: answer.body.user.id };
}

const mailTo = (address: string, subject: RegExp) =>
  mailbox().waitForEmail((caught) => subject.test(caught.subject), { to: address, what: `${subject} to ${address}` });

it('keeps no e-mailed token in any database document or Kafka message once its e-mail is sent', async () => {
  const since = await kafkaEnds();

  // A sign-up whose verification link is sent twice (a resend), not yet used.
  const pending = uniqueEmail('tokens-pending');
  const { userId: pendingId } = await registered(pending);
  const firstLink = verificationTokenIn(await verificationEmailTo(pending));
  expect((await new ApiClient(haven.gatewayUrl).post('/api/auth/resend-verification', { email: pending })).status).toBe(
    200,
  );
  await verificationEmailTo(pending, firstLink);

  // A verified account that asks for a password reset and a new address.
  const member = uniqueEmail('tokens-member');
  const newAddress = uniqueEmail('tokens-new');
  const { client } = await registered(member);
  await verifyByEmailLink(haven.gatewayUrl, member, client);
  expect((await new ApiClient(haven.gatewayUrl).post('/api/auth/forgot-password', { email: member })).status).toBe(200);
  const change = await client.graphql(
    'mutation ($input: ChangeEmailInput!) { requestEmailChange(input: $input) { message } }',
    { input: { newEmail: newAddress, currentPassword: password } },
  );
  expect(change.body.errors).toBeUndefined();
  await mailTo(member, /reset your haven password/i);
  await mailTo(newAddress, /.+/);

  // A visitor asking for the newsletter.
  const reader = uniqueEmail('tokens-reader');
  expect((await new ApiClient(haven.gatewayUrl).post('/api/newsletter/subscribe', { email: reader })).status).toBe(200);
  await mailTo(reader, /newsletter/i);

  const addresses = [pending, member, newAddress, reader];
  const emails = (await Promise.all(addresses.map((to) => mailbox().listEmails({ to })))).flat();
  const tokens = [...new Set(emails.flatMap(linkTokensIn))];
  // Two verification links, a reset link, the new address's link, the newsletter's: at least these five.
  expect(tokens.length).toBeGreaterThanOrEqual(5);
  const needles = tokens.flatMap(encodingsOf);

  // Sent: the delivery log says so for every e-mail read above.
  const deliveries = await haven.collection('notification', 'deliveries');
  await eventually('every e-mail of the test in the delivery log as sent', async () => {
    const sent = await deliveries.countDocuments({ to: { $in: addresses }, status: 'sent' });
    return sent >= emails.length;
  });

  // Every collection of every service, raw: the scan finds the accounts, and none of their links' tokens.
  expect(await tracesOf(haven, [pendingId])).not.toEqual([]);
  expect(await tracesOf(haven, needles)).toEqual([]);

  // Every message on the broker since the start, raw: the events went out, and carry no token readable.
  const messages = await messagesSince(since);
  expect(messages.some((message) => message.text.includes(pendingId))).toBe(true);
  const holding = messages.filter((message) => needles.some((needle) => message.text.includes(needle)));
  expect(holding.map((message) => message.topic)).toEqual([]);
});

it('redeems nothing stored: not a hash, not a sealed token, not a session id; the e-mailed links work', async () => {
  const email = uniqueEmail('tokens-redeem');
  const { userId } = await registered(email);
  const users = await haven.collection('user', 'users');
  const verifyWith = (token: string) => new ApiClient(haven.gatewayUrl).get(`/api/auth/verify-email?token=${token}`);

  // The verification link: its stored hash and its sealed copy on Kafka open nothing.
  const storedHash = (await users.findOne({ _id: userId as never }))?.emailVerification?.tokenHash as string;
  const event = decodeEvent(
    (await published.waitFor(userId, 'user.registered')).value,
  ) as DecodedEvent<'user.registered'>;
  const sealed = event.payload.verification?.sealedToken ?? '';
  expect(storedHash).toMatch(/^[0-9a-f]{64}$/);
  expect(sealed).toMatch(/^v1\./);
  expect(event.payload.verification?.token).toBe('');
  for (const stored of [storedHash, sealed]) expect((await verifyWith(encodeURIComponent(stored))).status).toBe(400);
  expect((await verifyWith(verificationTokenIn(await verificationEmailTo(email)))).status).toBe(200);

  // The reset link, likewise.
  expect((await new ApiClient(haven.gatewayUrl).post('/api/auth/forgot-password', { email })).status).toBe(200);
  const resetMail = await mailTo(email, /reset your haven password/i);
  const reset = await published.waitFor(userId, 'user.password_reset_requested');
  const resetSealed = (decodeEvent(reset.value) as DecodedEvent<'user.password_reset_requested'>).payload.reset
    ?.sealedToken;
  const resetHash = (await users.findOne({ _id: userId as never }))?.passwordReset?.tokenHash as string;
  const resetWith = (token: string) =>
    new ApiClient(haven.gatewayUrl).post('/api/auth/reset-password', { token, newPassword: 'another long password' });
  for (const stored of [resetHash, resetSealed!]) {
    const refused = await resetWith(stored);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ field: 'token' });
  }
  const resetLink = linkTokensIn(resetMail).find((token) => token.length === 43)!;
  expect((await resetWith(resetLink)).status).toBe(200);

  // The newsletter's confirmation link: its stored hash confirms nothing.
  const reader = uniqueEmail('tokens-redeem-reader');
  expect((await new ApiClient(haven.gatewayUrl).post('/api/newsletter/subscribe', { email: reader })).status).toBe(200);
  const confirmation = await mailTo(reader, /newsletter/i);
  const subscriber = await (
    await haven.collection('notification', 'newsletter_subscribers')
  ).findOne({ email: reader });
  const confirmWith = (token: string) => new ApiClient(haven.gatewayUrl).get(`/api/newsletter/confirm?token=${token}`);
  expect((await confirmWith(subscriber!.confirmTokenHash as string)).status).toBe(400);
  expect((await confirmWith(linkTokensIn(confirmation)[0]!)).status).toBe(200);

  // A session kept by the user service is an id; as a cookie or a bearer token it signs nobody in.
  const signedIn = new ApiClient(haven.gatewayUrl);
  expect((await signedIn.post('/api/auth/login', { email, password: 'another long password' })).status).toBe(200);
  const session = await (await haven.collection('user', 'sessions')).findOne({ userId });
  expect(session).not.toBeNull();
  const asCookie = await fetch(`${haven.gatewayUrl}/api/user`, {
    headers: { cookie: `haven_session=${session!._id}` },
  });
  const asBearer = await fetch(`${haven.gatewayUrl}/api/user`, {
    headers: { authorization: `Bearer ${session!._id}` },
  });
  expect([asCookie.status, asBearer.status]).toEqual([401, 401]);
  expect((await signedIn.get('/api/user')).status).toBe(200);
});
