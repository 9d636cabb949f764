/**
 * `make dev` starts Haven as six processes that serve a sign-up end to end (the browser tests run Haven in their
 * own process), and supervises them: a service that crashes is started again (with back-off) and the terminal is
 * told, instead of staying down silently.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apps, startApps, type AppPorts, type RunningApps } from '../dev/apps';
import { ensureDevKeys } from '../dev/keys';
import { freePorts } from '../infra';
import { eventually } from '../testing/eventually';
import { ApiClient, uniqueEmail } from '../testing/http';
import { verifyByEmailLink } from '../testing/verification';
import { testInfra } from '../testing/infra-control';

let running: RunningApps;
const said: string[] = [];
let ports: AppPorts;

let stateDir: string;

beforeAll(async () => {
  stateDir = mkdtempSync(join(tmpdir(), 'haven-dev-restart-'));
  const portList = await freePorts(apps.length);
  ports = Object.fromEntries(apps.map((app, index) => [app.name, portList[index]])) as AppPorts;
  running = await startApps({
    stateDir,
    infra: testInfra(),
    keys: ensureDevKeys(stateDir),
    ports,
    appUrl: `http://localhost:${ports.gateway}`,
    output: 'files',
    env: { LOG_LEVEL: 'warn' },
    restartCrashed: true,
    say: (line) => said.push(line),
  });
});

afterAll(async () => {
  await running?.stop();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

it('signs a person up through the gateway, mails the verification link and verifies them by it', async () => {
  const gatewayUrl = `http://localhost:${ports.gateway}`;
  const client = new ApiClient(gatewayUrl);
  const email = uniqueEmail('dev-apps');
  const registered = await client.post('/api/auth/register', { email, password: 'a dev stack password' });
  expect(registered.status).toBe(201);
  await verifyByEmailLink(gatewayUrl, email, client);
  const me = await client.get<{ emailVerified: boolean }>('/api/user');
  expect(me.status).toBe(200);
  expect(me.body.emailVerified).toBe(true);
});

it('restarts a crashed service and says so', async () => {
  const crashed = running.pidOf('quote')!;
  process.kill(crashed, 'SIGKILL');
  await eventually('the supervisor saying the quote service exited', () =>
    said.find((line) => /^quote +\| exited \(SIGKILL\); restarting in 1 s$/.test(line)),
  );
  await eventually(
    'the quote service ready again, as a new process',
    async () =>
      running.pidOf('quote') !== crashed &&
      (await fetch(`http://127.0.0.1:${ports.quote}/readyz`).then((response) => response.ok)),
    { timeoutMs: 90_000 },
  );
  await eventually('the supervisor saying the quote service is back', () =>
    said.find((line) => /^quote +\| restarted and ready$/.test(line)),
  );
});
