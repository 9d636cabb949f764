#!/usr/bin/env node
// Container health probe for Haven images (Dockerfile HEALTHCHECK, docker-compose healthcheck).
// Usage: node healthcheck.cjs [/path]   (default /healthz)
// Exits 0 when GET http://127.0.0.1:<port><path> answers 2xx within 3 s, 1 otherwise.
// <port> is $PORT, else the default port of $HAVEN_APP (set by the Dockerfile).
'use strict';

const DEFAULT_PORTS = {
  gateway: 4000,
  'services/user': 4001,
  'services/quote': 4002,
  'services/billing': 4003,
  'services/notification': 4004,
  'services/compliance': 4005,
};

const path = process.argv[2] || '/healthz';
const port = process.env.PORT || DEFAULT_PORTS[process.env.HAVEN_APP || ''] || 4000;

fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(3000) }).then(
  (res) => process.exit(res.ok ? 0 : 1),
  () => process.exit(1),
);
