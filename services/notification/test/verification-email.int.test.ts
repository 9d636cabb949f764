import { createHash } from 'node:crypto';
import { mailbox } from '../../../tools/testing/infra-control';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { eventually } from '../../../tools/testing/eventually';

let haven: TestHaven;

beforeAll(async () => {
  haven = await startTestHaven();
});

afterAll(async () => {
  await haven?.stop();
});

it('sends the verification e-mail, in HTML and text, with a link that carries the stored token', async () => {
  const email = uniqueEmail('verify');
  const response = await new ApiClient(haven.gatewayUrl).post('/api/auth/register', {
    email,
    password: 'long enough please',
    firstName: 'Dana',
  });
  expect(response.status).toBe(201);

  const message = await mailbox().waitForEmail({
    to: email,
    what: `the verification e-mail to ${email}`,
  });
  expect(message.subject).toBe('Verify your email for Haven');
  expect(message.from[0]?.address).toBe('hello@haven.local');
  expect(message.text).toContain('Hi Dana,');
  const link = /http:\/\/localhost:4000\/verify-email\?token=([\w-]+)/.exec(message.text ?? '');
  expect(link).not.toBeNull();
  expect(message.html).toContain(`href="http://localhost:4000/verify-email?token=${link![1]}"`);

  // The user service stores only the token's hash; the link's token is the one it hashed.
  const stored = await (await haven.collection('user', 'users')).findOne({ email });
  expect(stored?.emailVerification?.tokenHash).toBe(createHash('sha256').update(link![1]!).digest('hex'));

  // The mail reaches the catcher before the service records the delivery: wait for the record.
  const deliveries = await haven.collection('notification', 'deliveries');
  const delivery = await eventually(`the delivery record of the verification e-mail to ${email}`, () =>
    deliveries.findOne({ to: email, status: 'sent' }),
  );
  expect(delivery).toMatchObject({ status: 'sent', kind: 'verify-email' });
});
