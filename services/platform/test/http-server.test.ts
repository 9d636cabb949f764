import type { AddressInfo } from 'node:net';
import { createHttpServer, keepAliveMs } from '../src/http-server';

it('keeps an idle connection open far longer than a client would, and says so to the client', async () => {
  const server = createHttpServer((_req, res) => res.end('ok'));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  try {
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/`);
    expect(await response.text()).toBe('ok');
    // Clients (undici's fetch among them) read this hint and give up on an idle connection before the server does.
    expect(response.headers.get('keep-alive')).toBe(`timeout=${keepAliveMs / 1000}`);
    expect(keepAliveMs).toBeGreaterThanOrEqual(60_000);
  } finally {
    await new Promise((done) => server.close(done));
  }
});
