import { createServer, type Server } from 'node:net';
import { freePortRange, freePorts, freePortsFrom } from '..';

/** Binds `port` on 127.0.0.1 and closes it again; rejects when something else has it. */
function bindOnce(port: number): Promise<void> {
  return new Promise((resolveBound, rejectBound) => {
    const server = createServer();
    server.once('error', rejectBound);
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolveBound()));
  });
}

/** A listener on the first port from `from` on that can be bound (the test's own, not handed out by freePorts). */
async function listenFrom(from: number): Promise<{ port: number; server: Server }> {
  for (let port = from; port < freePortRange.to; port += 1) {
    const server = await new Promise<Server | null>((resolveHeld) => {
      const candidate = createServer();
      candidate.once('error', () => resolveHeld(null));
      candidate.listen({ port, host: '127.0.0.1', exclusive: true }, () => resolveHeld(candidate));
    });
    if (server) return { port, server };
  }
  throw new Error('no port to listen on');
}

const randomPortInRange = () =>
  freePortRange.from + Math.floor(Math.random() * (freePortRange.to - freePortRange.from - 100));

it('finds distinct ports below the ephemeral range, each free to bind straight after', async () => {
  const ports = await freePorts(6);
  expect(new Set(ports).size).toBe(6);
  for (const port of ports) {
    expect(port).toBeGreaterThanOrEqual(freePortRange.from);
    expect(port).toBeLessThan(freePortRange.to);
    await bindOnce(port);
  }
});

it('never hands out a port something is listening on', async () => {
  const { port, server } = await listenFrom(randomPortInRange());
  try {
    const found = await freePortsFrom(5, port);
    expect(found).not.toContain(port);
    expect(found).toHaveLength(5);
  } finally {
    await new Promise((resolveClosed) => server.close(resolveClosed));
  }
});

it('never gives one port to two callers, even after the first released it unbound', async () => {
  const from = randomPortInRange();
  const [first, second] = await Promise.all([freePortsFrom(10, from), freePortsFrom(10, from)]);
  const third = await freePortsFrom(10, from);
  const all = [...first!, ...second!, ...third];
  expect(new Set(all).size).toBe(30);
});
