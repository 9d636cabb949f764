/**
 * Past invoices with Stripe (the SDK against stripe-mock): what billing asks Stripe for, and how Stripe's answer
 * reaches Settings (the hosted invoice page included).
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { stripeClient } from '../src/providers/stripe';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { startStripeMock, stripeEnv, type StripeMock } from '../../../tools/testing/stripe-mock';

let haven: TestHaven;
let stripeMock: StripeMock;
let queryRecorder: Server;
let recorderUrl: string;
/** The recording proxy keeps paths alone; this one, in front of it, keeps each GET's query string too. */
const gets: string[] = [];
/** stripe-mock's fixed invoice has no hosted page; this proxy gives each listed invoice one, as Stripe does. */
const hostedPage = (id: string) => `https://invoice.stripe.com/i/acct_test/${id}`;

beforeAll(async () => {
  stripeMock = await startStripeMock();
  const upstream = new URL(stripeMock.url);
  queryRecorder = createServer((req, res) => {
    if (req.method === 'GET') gets.push(req.url ?? '/');
    const forwarded = request(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        if (!(req.method === 'GET' && req.url?.startsWith('/v1/invoices?'))) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const list = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data?: { id: string }[] };
          for (const invoice of list.data ?? []) Object.assign(invoice, { hosted_invoice_url: hostedPage(invoice.id) });
          const body = JSON.stringify(list);
          res.writeHead(answer.statusCode ?? 502, {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          });
          res.end(body);
        });
      },
    );
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => queryRecorder.listen(0, '127.0.0.1', resolve));
  recorderUrl = `http://127.0.0.1:${(queryRecorder.address() as AddressInfo).port}`;
  haven = await startTestHaven({
    env: { ...stripeEnv(stripeMock, 'whsec_test_invoices'), STRIPE_API_URL: recorderUrl },
  });
});

afterAll(async () => {
  await haven?.stop();
  await new Promise((resolve) => queryRecorder?.close(resolve));
  await stripeMock?.stop();
});

const invoicesQuery = '{ me { id invoices { id date amount currency status hostedInvoiceUrl } } }';

describe('past invoices with Stripe', () => {
  it('asks Stripe for the customer’s invoices with the limit, and maps its answer', async () => {
    const client = new ApiClient(haven.gatewayUrl);
    const registered = await client.post<{ user: { id: string } }>('/api/auth/register', {
      email: uniqueEmail('stripe-invoices'),
      password: 'a long enough password',
    });
    const userId = registered.body.user.id;
    // Without a customer at Stripe there is nothing to ask.
    let mark = gets.length;
    const none = await client.graphql<{ me: { invoices: unknown[] } }>(invoicesQuery);
    expect(none.body.errors).toBeUndefined();
    expect(none.body.data!.me.invoices).toEqual([]);
    expect(gets.slice(mark).filter((path) => path.startsWith('/v1/invoices'))).toEqual([]);

    expect((await client.post('/api/create-setup-intent')).status).toBe(200);
    const customerId = (await (await haven.collection('billing', 'customers')).findOne({ _id: userId as never }))!
      .customerId as string;
    mark = gets.length;
    const answer = await client.graphql<{ me: { invoices: Record<string, unknown>[] } }>(invoicesQuery);
    expect(answer.body.errors).toBeUndefined();

    const listed = gets.slice(mark).filter((path) => path.startsWith('/v1/invoices'));
    expect(listed).toHaveLength(1);
    const query = new URL(listed[0]!, 'http://stripe.test').searchParams;
    expect(query.get('customer')).toBe(customerId);
    expect(query.get('limit')).toBe('24');

    // stripe-mock answers fixed data: the same list, asked directly, is what billing maps.
    const expected = await stripeClient({ secretKey: 'sk_test_haven', apiUrl: recorderUrl }).invoices.list({
      customer: customerId,
      limit: 24,
    });
    expect(expected.data.length).toBeGreaterThan(0);
    expect(answer.body.data!.me.invoices).toEqual(
      expected.data.map((invoice) => ({
        id: invoice.id,
        date: new Date(invoice.created * 1000).toISOString(),
        amount: invoice.total,
        currency: invoice.currency,
        status: invoice.status ?? 'draft',
        hostedInvoiceUrl: invoice.hosted_invoice_url ?? null,
      })),
    );
    expect(answer.body.data!.me.invoices[0]).toMatchObject({
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      hostedInvoiceUrl: hostedPage(expected.data[0]!.id!),
    });
  });
});
