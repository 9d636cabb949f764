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
  await compose(['up', '--detach', '--wait', '--wait-timeout', '600']);
}, 20 * 60_000);

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

    // The web app itself is served from the same port.
    const home = await fetch(`${gatewayUrl}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('<div id="root">');
    everythingPassed = true;
  },
  5 * 60_000,
);
