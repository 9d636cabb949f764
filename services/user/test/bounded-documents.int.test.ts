/**
 * A user's document does not grow with what others ask for it: published events leave it, and a backlog of
 * unpublished ones is bounded. Small limits are set in the environment (startTestHaven raises them otherwise).
 */
import { mongo } from 'mongoose';
import { postFrom } from '../../../tools/testing/raw-http';
import { eventually } from '../../../tools/testing/eventually';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { mailbox, type CaughtEmail } from '../../../tools/testing/infra-control';

const mailPerRecipient = 4;
const maxPending = 3;
let haven: TestHaven;
const inbox = mailbox();

beforeAll(async () => {
  haven = await startTestHaven({
    env: { RATE_LIMIT_MAIL_MAX: String(mailPerRecipient), OUTBOX_MAX_PENDING: String(maxPending) },
  });
  await haven.services.notification.eventsReady;
});

afterAll(async () => {
  await haven?.stop();
});

async function signedUp(): Promise<{ email: string; id: string }> {
  const email = uniqueEmail('bounded');
  const response = await new ApiClient(haven.gatewayUrl).post<{ user: { id: string } }>('/api/auth/register', {
    email,
    password: 'a bounded password',
  });
  expect(response.status).toBe(201);
  return { email, id: response.body.user.id };
}

async function storedUser(id: string) {
  return (await haven.collection('user', 'users')).findOne({ _id: id as never });
}

/** The document's size as stored, once the relay has published (and removed) every event it held. */
async function publishedSize(id: string): Promise<number> {
  return eventually(`the events of ${id} published`, async () => {
    const user = await storedUser(id);
    return user && (user.outbox as unknown[]).length === 0 ? mongo.BSON.calculateObjectSize(user) : undefined;
  });
}

const resetsTo = (email: string) => (caught: CaughtEmail) =>
  caught.to.some((to) => to.address === email) && /reset/i.test(caught.subject);

it('forty reset requests from forty clients send at most the per-recipient number, and the document shrinks back', async () => {
  const { email, id } = await signedUp();
  const before = await publishedSize(id);
  const versionBefore = (await storedUser(id))!.outboxVersion as number;

  const replies = [];
  for (let client = 0; client < 40; client += 1) {
    replies.push(await postFrom(haven.gatewayUrl, `127.0.6.${client + 1}`, '/api/auth/forgot-password', { email }));
  }
  const accepted = replies.filter((reply) => reply.status === 200).length;
  expect(replies.every((reply) => reply.status === 200 || reply.status === 429)).toBe(true);
  expect(accepted).toBeGreaterThanOrEqual(1);
  expect(accepted).toBeLessThanOrEqual(mailPerRecipient);

  await eventually(`${accepted} reset e-mails to ${email}`, async () => {
    const count = (await inbox.listEmails({ to: email })).filter(resetsTo(email)).length;
    if (count > accepted) throw new Error(`${count} reset e-mails arrived for ${accepted} accepted requests`);
    return count === accepted;
  });
  // What stays is the newest reset link and the event count: a few hundred bytes, not forty events.
  const after = await publishedSize(id);
  expect(after - before).toBeLessThan(300);
  expect(await storedUser(id)).toMatchObject({ outboxVersion: versionBefore + accepted });
}, 120_000);

it('refuses a request with 429 while the account holds too many unpublished events, storing nothing', async () => {
  const { email, id } = await signedUp();
  await publishedSize(id);
  const relay = haven.services.user.relay!;
  await relay.stop();
  try {
    // With the relay stopped, each accepted request leaves its event in the document.
    for (let request = 0; request < maxPending; request += 1) {
      const reply = await postFrom(haven.gatewayUrl, `127.0.7.${request + 1}`, '/api/auth/resend-verification', {
        email,
      });
      expect(reply.status).toBe(200);
    }
    const full = await storedUser(id);
    expect(full?.outbox).toHaveLength(maxPending);

    const refused = await postFrom(haven.gatewayUrl, '127.0.7.100', '/api/auth/resend-verification', { email });
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(refused.json).toMatchObject({ message: expect.stringMatching(/try again/i) });
    const afterRefusal = await storedUser(id);
    expect(afterRefusal?.outboxVersion).toBe(full?.outboxVersion);
    expect(afterRefusal?.emailVerification).toEqual(full?.emailVerification);

    const graphql = await new ApiClient(haven.gatewayUrl).graphql(
      'mutation ($email: String) { resendVerification(email: $email) { message } }',
      { email },
    );
    expect(graphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
  } finally {
    relay.start();
  }
  // Once the relay is back the backlog goes out, and the document with it.
  await publishedSize(id);
}, 120_000);
