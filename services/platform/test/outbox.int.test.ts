import { mailbox, startTestKafka, stopTestKafka } from '../../../tools/testing/infra-control';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';

let haven: TestHaven;

beforeAll(async () => {
  haven = await startTestHaven();
});

afterAll(async () => {
  await startTestKafka(); // leave the broker running for the next test file, even after a failure
  await haven?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('keeps registrations while Kafka is down and sends the verification e-mail exactly once when it is back', async () => {
  const inbox = mailbox();
  const email = uniqueEmail('outage');
  const toThisUser = (mail: { to: Array<{ address: string }> }) => mail.to.some((to) => to.address === email);

  // Steady state first: the mailer has joined its group; then the broker goes away.
  await haven.services.notification.eventsReady;
  await stopTestKafka();
  const response = await new ApiClient(haven.gatewayUrl).post('/api/auth/register', {
    email,
    password: 'kafka is down',
  });
  expect(response.status).toBe(201);

  // The event waits in the user's own document, not lost and not sent.
  const users = await haven.collection('user', 'users');
  await sleep(2_000);
  const pending = await users.findOne({ email });
  expect(pending?.outboxVersion).toBe(1);
  expect(pending?.outbox).toHaveLength(1);
  expect(pending?.outbox[0].type).toBe('user.registered');
  expect((await inbox.listEmails()).filter(toThisUser)).toHaveLength(0);

  await startTestKafka();
  await inbox.waitForEmail(toThisUser, 60_000);
  // Give any duplicate time to arrive before counting.
  await sleep(3_000);
  expect((await inbox.listEmails()).filter(toThisUser)).toHaveLength(1);
  // The relay records how far the user's log is published in its own collection, not in the user.
  const marks = await haven.collection('user', 'outbox_marks');
  expect(await marks.findOne({ _id: `users:${pending?._id}` })).toMatchObject({ publishedUpTo: 1 });
});

it('starts while Kafka is down, and its consumers join once the broker is back', async () => {
  const inbox = mailbox();
  const email = uniqueEmail('cold-start');
  await stopTestKafka();
  const late = await startTestHaven();
  try {
    const response = await new ApiClient(late.gatewayUrl).post('/api/auth/register', {
      email,
      password: 'no broker yet',
    });
    expect(response.status).toBe(201);
    await startTestKafka();
    await late.services.notification.eventsReady;
    await inbox.waitForEmail((mail) => mail.to.some((to) => to.address === email), 60_000);
  } finally {
    await late.stop();
  }
});
