/**
 * The OpenAI provider through the real `openai` SDK, against a local OpenAI-compatible server this test
 * starts: it captures every request, so the test can prove what leaves Haven (no name, e-mail, phone number,
 * address, birth date, card number or id, also when the user typed them into the notes: every item of the scrub's
 * labelled set goes through), and it can fail or stall to prove the fallback.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestHaven, type TestHaven } from '../../../tools/testing/haven';
import { ApiClient, uniqueEmail } from '../../../tools/testing/http';
import { startTrial } from '../../../tools/testing/subscription';
import { library } from '../src/domain/library';
import { harmlessNotes, personalNotes } from './support';

interface Captured {
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let haven: TestHaven;
let provider: Server;
let mode: 'answer' | 'fail' | 'stall' = 'answer';
const captured: Captured[] = [];
const aiText = 'A heavy evening for sleep. Let the day go, and take three slow breaths before bed.';
/** What the provider answers while `mode` is 'answer'. */
let providerReply = aiText;

beforeAll(async () => {
  provider = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      captured.push({ url: req.url ?? '', headers: req.headers, body });
      if (mode === 'stall') return; // never answers: the SDK's timeout must fire
      if (mode === 'fail') {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'provider down' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-test',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: 'test-model',
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: providerReply } }],
        }),
      );
    });
  });
  await new Promise<void>((done) => provider.listen(0, '127.0.0.1', done));
  const { port } = provider.address() as AddressInfo;
  haven = await startTestHaven({
    env: {
      OPENAI_API_KEY: 'sk-test-local',
      OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
      OPENAI_MODEL: 'test-model',
      OPENAI_TIMEOUT_MS: '1500',
      // The labelled set goes through one account's check-ins, one after another.
      RATE_LIMIT_COSTLY_MAX: '1000',
    },
  });
});

afterAll(async () => {
  await haven?.stop();
  provider?.closeAllConnections();
  await new Promise((done) => provider?.close(done));
});

async function subscriber(): Promise<{ client: ApiClient; id: string; email: string }> {
  const client = new ApiClient(haven.gatewayUrl);
  const email = uniqueEmail('ada');
  const registered = await client.post<{ user: { id: string } }>('/api/auth/register', {
    email,
    password: 'analytical engine',
    firstName: 'Ada',
    lastName: 'Lovelace',
  });
  await startTrial(client);
  return { client, id: registered.body.user.id, email };
}

it('sends only ratings, time of day and scrubbed notes: no name, e-mail, phone, address, birth date, card or id', async () => {
  mode = 'answer';
  captured.length = 0;
  const { client, id, email } = await subscriber();
  const notes =
    `I'm Ada Lovelace (ada lovelace on forms), write to ${email} or call +44 7700 900123. My name is Augusta. ` +
    `Account ${id}. I live at 12 Elm Grove, Leeds LS1 4AP. Born on 10 December 1985. Card 4242 4242 4242 4242.`;
  const reply = await client.post<{ quote: { id: string; text: string } }>('/api/quotes/generate', {
    sleepQuality: 1,
    timeOfDayPreference: 'evening',
    notes,
  });
  expect(reply.status).toBe(200);
  expect(reply.body.quote.text).toBe(aiText);

  expect(captured).toHaveLength(1);
  const [request] = captured as [Captured];
  expect(request.url).toBe('/v1/chat/completions');
  // Every header but the provider's own address (a free port here, whose digits may spell anything).
  const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => name !== 'host'));
  const sent = `${JSON.stringify(headers)}\n${request.body}`;
  for (const secret of [
    'Ada',
    'Lovelace',
    'Augusta',
    email,
    email.split('@')[0]!,
    '7700',
    '900123',
    id,
    reply.body.quote.id,
    'Elm Grove',
    'Leeds',
    'LS1 4AP',
    'December 1985',
    '4242',
  ]) {
    expect(sent.toLowerCase()).not.toContain(secret.toLowerCase());
  }
  // What it does carry: the ratings, the time of day and the rest of the notes.
  const body = JSON.parse(request.body) as { model: string; messages: Array<{ role: string; content: string }> };
  expect(body.model).toBe('test-model');
  const prompt = body.messages.find((message) => message.role === 'user')!.content;
  expect(prompt).toContain('Sleep quality: 1/5');
  expect(prompt).toContain('Time of day: evening.');
  expect(prompt).toContain(
    "I'm [name] [name] ([name] [name] on forms), write to [email] or call [number]. My name is [name].",
  );
  expect(prompt).toContain('I live at [address]. Born on [date]. Card [number].');
});

/** The words of the user message a captured request asked the provider about. */
function promptOf(request: Captured): string {
  const body = JSON.parse(request.body) as { messages: Array<{ role: string; content: string }> };
  return body.messages.find((message) => message.role === 'user')?.content ?? '';
}

/** Checks in with each note in turn; each check-in's request to the provider, or null when none went out. */
async function requestsFor(client: ApiClient, notes: string[]): Promise<Array<Captured | null>> {
  const requests: Array<Captured | null> = [];
  for (const note of notes) {
    const before = captured.length;
    const reply = await client.post('/api/quotes/generate', {
      sleepQuality: 2,
      timeOfDayPreference: 'evening',
      notes: note,
    });
    expect(reply.status).toBe(200);
    requests.push(captured.length === before + 1 ? captured.at(-1)! : null);
  }
  return requests;
}

it('sends none of the labelled set’s personal details to the provider (links, IBAN, sort code, NI and SSN numbers too)', async () => {
  mode = 'answer';
  captured.length = 0;
  const { client, email } = await subscriber();
  const requests = await requestsFor(
    client,
    personalNotes.map(([notes]) => notes),
  );
  const notSent: string[] = [];
  const carried: string[] = [];
  for (const [index, [notes, details]] of personalNotes.entries()) {
    const request = requests[index];
    if (!request) {
      notSent.push(notes);
      continue;
    }
    // Headers, the body as sent and its words as read: an escaped character hides nothing.
    const sent = `${JSON.stringify(request.headers)}\n${request.body}\n${promptOf(request)}`.toLowerCase();
    for (const detail of [...details, email]) {
      if (sent.includes(detail.toLowerCase())) carried.push(`${detail} (from “${notes}”)`);
    }
  }
  expect({ notSent, carried }).toEqual({ notSent: [], carried: [] });
});

it('sends the labelled set’s harmless notes to the provider as they are', async () => {
  mode = 'answer';
  captured.length = 0;
  const { client } = await subscriber();
  const requests = await requestsFor(client, harmlessNotes);
  // Quoted whole in the prompt, so the provider reads exactly what the person wrote.
  const changed = harmlessNotes.filter((notes, index) => {
    const request = requests[index];
    return !request || !promptOf(request).includes(`Their own words: "${notes}"`);
  });
  expect(changed).toEqual([]);
});

it.each(['fail', 'stall'] as const)(
  'falls back to the offline composer when the provider answers %s',
  async (failure) => {
    mode = failure;
    captured.length = 0;
    const { client } = await subscriber();
    const reply = await client.post<{ quote: { text: string } }>('/api/quotes/generate', { sleepQuality: 1 });
    expect(reply.status).toBe(200);
    expect(captured.length).toBeGreaterThanOrEqual(1);
    expect(library.map((message) => message.text)).toContain(reply.body.quote.text);
  },
);

it.each([
  ['means', 'Some people think about an overdose on days like this. Please rest instead.'],
  ['diagnosis', 'It sounds like you might have an anxiety disorder. Breathe slowly.'],
  ['medication', 'Melatonin before bed could help you sleep tonight.'],
  ['a directive', 'You should go to bed earlier and stop worrying.'],
  ['a promise of cure', 'A daily walk will cure your low mood for good.'],
  ['a made-up number', 'Call 0800 123 4567 any time, day or night.'],
])("replaces a provider's reply with %s by the composer's message for the same check-in", async (_rule, bad) => {
  mode = 'answer';
  providerReply = bad;
  captured.length = 0;
  try {
    const { client } = await subscriber();
    const reply = await client.post<{ quote: { text: string } }>('/api/quotes/generate', {
      sleepQuality: 2,
      timeOfDayPreference: 'evening',
    });
    expect(reply.status).toBe(200);
    expect(captured).toHaveLength(1);
    expect(reply.body.quote.text).not.toBe(bad);
    expect(library.map((message) => message.text)).toContain(reply.body.quote.text);
  } finally {
    providerReply = aiText;
  }
});

it('never sends a crisis check-in to the provider: the reply leads with support resources', async () => {
  mode = 'answer';
  captured.length = 0;
  const { client } = await subscriber();
  const reply = await client.post<{ quote: { text: string } }>('/api/quotes/generate', {
    urgencyOfNeed: 5,
    hopeForFuture: 2,
    country: 'GB',
  });
  expect(reply.status).toBe(200);
  expect(reply.body.quote.text).toContain('Samaritans');
  expect(captured).toHaveLength(0);
});

it('never sends crisis in the notes to the provider: calm ratings still get the crisis reply', async () => {
  mode = 'answer';
  captured.length = 0;
  const { client } = await subscriber();
  const reply = await client.post<{ quote: { text: string }; supportResources: { region: string } | null }>(
    '/api/quotes/generate',
    {
      sleepQuality: 4,
      hopeForFuture: 4,
      timeOfDayPreference: 'afternoon',
      notes: 'Lunch with Sam was fine. honestly i want to end it all and nobody knows. Back to work now.',
      country: 'GB',
    },
  );
  expect(reply.status).toBe(200);
  expect(reply.body.quote.text).not.toBe(aiText);
  expect(reply.body.quote.text.split('\n')[1]).toBe('Samaritans: Call 116 123 (free, 24 hours).');
  expect(reply.body.supportResources?.region).toBe('GB');
  expect(captured).toHaveLength(0);
});
