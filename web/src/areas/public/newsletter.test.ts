import { subscribeToNewsletter, subscriptionFailedToast } from './newsletter';

function reply(status: number, body: string): typeof fetch {
  return (async () => new Response(body, { status })) as typeof fetch;
}

describe('newsletter sign-up', () => {
  it('succeeds on a 2xx answer and sends the e-mail with its source', async () => {
    let sent: RequestInit | undefined;
    const fetchImpl = (async (_url: string, init?: RequestInit) => {
      sent = init;
      return new Response('{}', { status: 201 });
    }) as typeof fetch;
    await expect(subscribeToNewsletter('a@example.com', fetchImpl)).resolves.toEqual({ ok: true });
    expect(JSON.parse(String(sent?.body))).toEqual({
      email: 'a@example.com',
      userId: null,
      subscriptionSource: 'website',
    });
    expect(sent?.method).toBe('POST');
  });

  it('fails without a message when the route is not there (404) or the network fails', async () => {
    await expect(subscribeToNewsletter('a@example.com', reply(404, 'Cannot POST'))).resolves.toEqual({ ok: false });
    const offline = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    await expect(subscribeToNewsletter('a@example.com', offline)).resolves.toEqual({ ok: false });
  });

  it('passes on the server’s own message, never a raw body', async () => {
    const bad = reply(400, JSON.stringify({ message: 'Please enter a valid email address.' }));
    await expect(subscribeToNewsletter('nope', bad)).resolves.toEqual({
      ok: false,
      message: 'Please enter a valid email address.',
    });
    await expect(subscribeToNewsletter('a@example.com', reply(502, '<html>Bad gateway</html>'))).resolves.toEqual({
      ok: false,
      message: undefined,
    });
  });

  it('shows the spec’s failure title with a kind fallback', () => {
    expect(subscriptionFailedToast()).toMatchObject({ title: 'Subscription Failed', variant: 'destructive' });
    expect(subscriptionFailedToast('Too many attempts').description).toBe('Too many attempts');
  });
});
