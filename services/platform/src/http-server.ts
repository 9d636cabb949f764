import { createServer, type RequestListener, type Server } from 'node:http';

/** How long an idle keep-alive connection stays open: far past the idle limit of any client Haven has. */
export const keepAliveMs = 65_000;

/**
 * The HTTP server of the gateway and every service. It closes an idle keep-alive connection only long after
 * its clients would (undici's fetch gives up on one after 4 s): with Node's 5 s default, a server closing a
 * connection races a client reusing it, and on a busy machine the client's request fails with ECONNRESET.
 * Stopping is unaffected: `close()` ends idle connections at once.
 */
export function createHttpServer(app: RequestListener): Server {
  const server = createServer(app);
  server.keepAliveTimeout = keepAliveMs;
  server.headersTimeout = keepAliveMs + 1_000;
  return server;
}
