import { processedEventsCollection } from '@haven/platform';
import { eventually, eventuallyExpect } from '../../../tools/testing/eventually';
import { untilEveryConsumerJoined } from '../../../tools/testing/consumer-groups';
import { mailbox, startTestKafka, stopTestKafka } from '../../../tools/testing/infra-control';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';

/** The first test's Haven; the cold start runs alone (see there). */
let haven: TestHaven | undefined;

beforeAll(async () => {
  haven = await startTestHaven();
});

const outageHaven = (): TestHaven => {
  if (!haven) throw new Error('the file’s Haven is not running');
  return haven;
};

afterAll(async () => {
  await startTestKafka(); // leave the broker running for the next test file, even after a failure
  if (!haven) return;
  const running = haven;
  try {
    await untilEveryConsumerJoined(running);
  } finally {
    await running.stop();
  }
}, 180_000);

it('keeps registrations while Kafka is down and sends the verification e-mail exactly once when it is back', async () => {
  const inbox = mailbox();
  const email = uniqueEmail('outage');
  const toThisUser = (mail: { to: Array<{ address: string }> }) => mail.to.some((to) => to.address === email);
  const haven = outageHaven();
  const relay = haven.services.user.relay!;

  // Steady state first: the mailer has joined its group; then the broker goes away.
  await haven.services.notification.eventsReady;
  await stopTestKafka();
  const failedBefore = relay.metrics.failedPasses;
  const response = await new ApiClient(haven.gatewayUrl).post('/api/auth/register', {
    email,
    password: 'kafka is down',
  });
  expect(response.status).toBe(201);

  // The relay tries to publish the event and fails, twice (the second try after its back-off): with nothing
  // pending a pass never touches Kafka, so these failures are this event's.
  await eventually('two failed relay passes', () => relay.metrics.failedPasses >= failedBefore + 2, {
    timeoutMs: 60_000,
  });
  // The event waits in the user's own document, not lost and not sent.
  const users = await haven.collection('user', 'users');
  const pending = await users.findOne({ email });
  expect(pending?.outboxVersion).toBe(1);
  expect(pending?.outbox).toHaveLength(1);
  expect(pending?.outbox[0].type).toBe('user.registered');
  const markId = `users:${pending?._id}`;
  expect(await (await haven.collection('user', 'outbox_pending')).findOne({ _id: markId })).not.toBeNull();
  expect(await (await haven.collection('user', 'outbox_marks')).findOne({ _id: markId })).toBeNull();
  expect(await inbox.listEmails({ to: email })).toHaveLength(0);

  await startTestKafka();
  await inbox.waitForEmail(toThisUser, { to: email, timeoutMs: 60_000 });
  // Before counting: the relay is done with the user's log (its mark says published, its pending mark is gone),
  // and the mailer has recorded the event as handled, so any redelivery of it is skipped and sends nothing.
  const eventId = pending?.outbox[0].eventId as string;
  const marks = await haven.collection('user', 'outbox_marks');
  const pendingMarks = await haven.collection('user', 'outbox_pending');
  const processed = await haven.collection('notification', processedEventsCollection('notification'));
  await eventuallyExpect('the relay and the mailer done with the event', async () => {
    expect(await marks.findOne({ _id: markId })).toMatchObject({ publishedUpTo: 1 });
    expect(await pendingMarks.findOne({ _id: markId })).toBeNull();
    expect(await processed.findOne({ _id: eventId })).toMatchObject({ outcome: 'handled' });
  });
  expect(await inbox.listEmails({ to: email })).toHaveLength(1);
}, 180_000);

it('starts while Kafka is down, and its consumers join once the broker is back', async () => {
  const inbox = mailbox();
  const email = uniqueEmail('cold-start');
  // Alone: two Havens on one broker share the consumer groups, and the other's mailer cannot open this one's
  // sealed addresses (its user service holds other people's keys).
  if (haven) {
    const running = haven;
    haven = undefined;
    await untilEveryConsumerJoined(running);
    await running.stop();
  }
  await stopTestKafka();
  const late = await startTestHaven({ awaitEvents: false });
  try {
    const response = await new ApiClient(late.gatewayUrl).post('/api/auth/register', {
      email,
      password: 'no broker yet',
    });
    expect(response.status).toBe(201);
    await startTestKafka();
    await late.services.notification.eventsReady;
    await inbox.waitForEmail({ to: email, timeoutMs: 60_000 });
    await untilEveryConsumerJoined(late);
  } finally {
    await late.stop();
  }
}, 180_000);
