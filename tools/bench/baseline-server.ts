/**
 * The benchmark's baseline: a bare Node `http` server that answers every request with one fixed
 * JSON body (the signed-in user's JSON, passed in BENCH_BASELINE_BODY). No framework, no
 * middleware, no database: what "one Node process answering JSON on loopback" costs here.
 *
 * Started by run.ts as a child process with an IPC channel; it reports its port over that
 * channel and exits when the channel closes (so it never outlives the runner).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const body = Buffer.from(process.env.BENCH_BASELINE_BODY ?? '', 'utf8');
if (body.length === 0 || typeof process.send !== 'function') {
  console.error('baseline-server: run by tools/bench/run.ts (needs BENCH_BASELINE_BODY and an IPC channel)');
  process.exit(2);
}

const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) };

const server = createServer((req, res) => {
  req.resume();
  res.writeHead(200, headers);
  res.end(body);
});

server.listen({ port: 0, host: '127.0.0.1' }, () => {
  const { port } = server.address() as AddressInfo;
  process.send?.({ port });
});

process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
