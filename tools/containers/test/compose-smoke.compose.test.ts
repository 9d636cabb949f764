/**
 * The compose smoke (`make compose-smoke`, and the container stage of `make test`): the whole stack
 * from docker-compose.yml on the images `make images` built, a person's first minutes walked through
 * the gateway's published port, then `down -v`. Container logs are kept when anything failed.
 *
 * Runs in the jest project "compose", which exists only when HAVEN_CONTAINER_STAGE=1
 * (tools/containers/stage.ts sets it after starting the engine and building the images).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePorts } from '../../infra/index';
import { repoRoot } from '../../infra/paths';
import { ApiClient, uniqueEmail } from '../../testing/http';
import { mailbox } from '../../testing/infra-control';
import { composeBinaryPath, dockerEnv, run } from '../engine';

const project = 'haven-smoke';
const composeFiles =
  process.env.HAVEN_CONTAINER_IMAGES === 'public'
    ? ['docker-compose.yml']
    : ['docker-compose.yml', 'docker-compose.local.yml'];

let gatewayUrl = '';
let mailUrl = '';
let env: NodeJS.ProcessEnv = {};
let everythingPassed = false;

function compose(args: string[], timeoutMs = 15 * 60_000): Promise<string> {
  return run(composeBinaryPath(), ['-p', project, ...composeFiles.flatMap((file) => ['-f', file]), ...args], {
    env,
    timeoutMs,
  });
}

beforeAll(async () => {
  const [gatewayPort, mailPort] = await freePorts(2);
  gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  mailUrl = `http://127.0.0.1:${mailPort}`;
  env = dockerEnv({ HAVEN_GATEWAY_PORT: String(gatewayPort), HAVEN_MAIL_PORT: String(mailPort) });
  // A stack left by an interrupted run would hold the project's volumes: start from nothing.
  await compose(['down', '--volumes', '--remove-orphans', '--timeout', '10']);
  await compose(['up', '--detach', '--wait', '--wait-timeout', '600']).catch(async (error: Error) => {
    const why = await unwellContainers().catch((listing: Error) => `could not list the containers: ${listing.message}`);
    throw new Error(`compose up did not bring the stack up healthy: ${why}\n\n${error.message}`);
  });
}, 20 * 60_000);

interface ContainerState {
  Name: string;
  Service: string;
  State: string;
  Health: string;
  ExitCode: number;
}

/**
 * Why the stack is not up, sickest first: a line of every container not running healthy (the finished key
 * maker aside), then, for those unhealthy or stopped, their last health probe and log lines.
 */
async function unwellContainers(): Promise<string> {
  const listing = await compose(['ps', '--all', '--format', 'json'], 60_000);
  const containers = listing
    .split('\n')
    .filter((line) => line.trim().startsWith('{'))
    .map((line) => JSON.parse(line) as ContainerState);
  const sick = (container: ContainerState) =>
    container.Health === 'unhealthy' || (container.State !== 'running' && container.State !== 'created');
  const unwell = containers
    .filter(
      (container) =>
        !(container.State === 'running' && (container.Health === 'healthy' || container.Health === '')) &&
        !(container.State === 'exited' && container.ExitCode === 0),
    )
    .sort((a, b) => Number(sick(b)) - Number(sick(a)));
  if (containers.length === 0) return `no containers listed (${listing.slice(0, 300)})`;
  if (unwell.length === 0) return 'every container runs healthy now';
  const states = unwell.map(
    (container) =>
      `${container.Service} ${container.Health || container.State}` +
      (container.State === 'exited' ? ` (exit code ${container.ExitCode})` : ''),
  );
  const details = await Promise.all(
    unwell.filter(sick).map(async (container) => {
      const lastProbe = await run(
        'docker',
        [
          'inspect',
          '--format',
          '{{with .State.Health}}{{range .Log}}{{.ExitCode}} {{.Output}}{{end}}{{end}}',
          container.Name,
        ],
        { env, timeoutMs: 60_000 },
      ).catch((inspecting: Error) => inspecting.message);
      const logs = await compose(['logs', '--no-color', '--tail', '15', container.Service], 60_000).catch(
        (reading: Error) => reading.message,
      );
      return [
        `${container.Service}, last health probes (exit code, output): ${lastProbe.trim().slice(-600) || 'none'}`,
        ...logs
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => `  | ${line}`),
      ].join('\n');
    }),
  );
  return [states.join('; '), ...details].join('\n');
}

afterAll(async () => {
  if (!everythingPassed) {
    const dir = join(repoRoot, '.haven', 'containers', 'compose-logs');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}.log`);
    const logs = await compose(['logs', '--no-color', '--timestamps'], 120_000).catch((error: Error) => error.message);
    const status = await compose(['ps', '--all'], 60_000).catch((error: Error) => error.message);
    writeFileSync(file, `${status}\n${logs}`);
    console.error(`[haven containers] compose smoke failed; container logs kept in ${file}`);
  }
  await compose(['down', '--volumes', '--remove-orphans', '--timeout', '20'], 5 * 60_000);
}, 10 * 60_000);

it(
  'signs a person up, sends the verification e-mail and signs them in, all through the published gateway port',
  async () => {
    const email = uniqueEmail('compose');
    const password = 'a long compose password';

    const signUp = await new ApiClient(gatewayUrl).post('/api/auth/register', { email, password, firstName: 'Robin' });
    expect(signUp.status).toBe(201);
    expect(signUp.body).toMatchObject({ user: { email, firstName: 'Robin', emailVerified: false } });

    // The e-mail crosses Kafka to the notification service and SMTP to the mail catcher.
    const message = await mailbox(mailUrl).waitForEmail((mail) => mail.to.some((to) => to.address === email), 120_000);
    expect(message.subject).toBe('Verify your email for Haven');
    expect(message.text).toMatch(/\/verify-email\?token=[\w-]+/);

    const returning = new ApiClient(gatewayUrl);
    const signIn = await returning.post('/api/auth/login', { email, password });
    expect(signIn.status).toBe(200);
    const me = await returning.get('/api/user');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email, firstName: 'Robin' });

    // The web app itself is served from the same port: the landing page prerendered, for a visitor not signed in.
    const home = await fetch(`${gatewayUrl}/`);
    expect(home.status).toBe(200);
    const landing = await home.text();
    expect(landing).toMatch(/<div id="root"[^>]*\sdata-prerendered[\s>]/);
    expect(landing).toContain('Track. Reflect. Thrive.');
    everythingPassed = true;
  },
  5 * 60_000,
);
