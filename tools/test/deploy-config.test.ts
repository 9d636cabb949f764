/**
 * Deploy configuration, checked without Docker or a cluster.
 *
 * Parses docker-compose.yml, tools/docker/Dockerfile (+ .dockerignore, healthcheck script)
 * and each k8s/ overlay as kustomize builds it, and asserts what would break a deploy: a missing
 * service, a wrong port or host name, an unset variable, a probe on the wrong port, a
 * Service that selects nothing, a Secret nobody defines, an image entry that changes nothing.
 *
 * The overlays are built by kustomize's own library, in the Go program of `make k8s-check`
 * (renderKubernetes in tools/containers/k8s-check.ts), so each is checked as it will be applied.
 *
 * Every failure message starts with the file and the resource it is about.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parse, parseAllDocuments } from 'yaml';
import { gatewayEntry, serviceCatalog, serviceUrlVariable } from '../../services/platform/src/catalog';
import { renderKubernetes } from '../containers/k8s-check';
import { kafkaAclsTool } from '../containers/images';
import {
  serviceKafkaUserName,
  kafkaUserOf,
  kafkaUsersFile,
  restoreKafkaUser,
  restoreKafkaUserName,
} from '../containers/kafka-users';
import { producerServices } from '../../proto/src/index';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const ROOT = path.resolve(__dirname, '..', '..');
const rel = (p: string): string => path.relative(ROOT, p).split(path.sep).join('/') || '.';
const readText = (p: string): string => fs.readFileSync(path.join(ROOT, p), 'utf8');
const isObject = (v: unknown): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);
const asArray = <T = Json>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);

// ---------------------------------------------------------------------------------------
// The system, read from the service catalog (services/platform/src/catalog.ts)
// ---------------------------------------------------------------------------------------

interface App {
  /** compose service, k8s Deployment and Service name */
  name: string;
  /** workspace folder = the Dockerfile's APP build argument */
  folder: string;
  port: number;
  kind: 'service' | 'gateway';
}

const APPS: App[] = [
  ...serviceCatalog.map(({ name, dir, port }): App => ({ name, folder: dir, port, kind: 'service' })),
  { name: gatewayEntry.name, folder: gatewayEntry.dir, port: gatewayEntry.port, kind: 'gateway' },
];
const appNamed = (name: string): App | undefined => APPS.find((a) => a.name === name);

/** The gateway's subgraph URLs, and which service each must reach. */
const SERVICE_URL_VARS: Record<string, string> = Object.fromEntries(
  serviceCatalog.map(({ name }) => [serviceUrlVariable(name), name]),
);

/** A requirement is a variable name, or alternatives of which one must be set. */
type EnvRequirement = string | string[];
const JWT_PUBLIC: EnvRequirement = ['JWT_PUBLIC_KEY', 'JWT_PUBLIC_KEY_FILE'];
const JWT_PRIVATE: EnvRequirement = ['JWT_PRIVATE_KEY', 'JWT_PRIVATE_KEY_FILE'];
/** The services' own credential: every service needs it (production refuses to start without), the gateway never. */
const SERVICE_SECRET: EnvRequirement = ['SERVICE_SECRET', 'SERVICE_SECRET_FILE'];
const SERVICE_ENV: EnvRequirement[] = [
  'NODE_ENV',
  'LOG_LEVEL',
  'PORT',
  ['MONGO_URL', 'MONGO_URL_FILE'],
  'MONGO_DB',
  'KAFKA_BROKERS',
  'KAFKA_CLIENT_ID',
  JWT_PUBLIC,
  SERVICE_SECRET,
];
const EXTRA_ENV: Record<string, EnvRequirement[]> = {
  user: [JWT_PRIVATE, 'SESSION_TTL_SECONDS'],
  // Services that ask the user service for a caller's role.
  quote: ['USER_SERVICE_URL'],
  billing: ['USER_SERVICE_URL'],
  // SMTP_USER / SMTP_PASS may be empty (= no auth); checked separately (they must come from a Secret in k8s).
  notification: ['SMTP_HOST', 'SMTP_PORT', 'SMTP_SECURE', 'MAIL_FROM', 'APP_URL', 'USER_SERVICE_URL'],
  compliance: ['GDPR_ENABLED', 'COOKIE_BANNER_ENABLED', 'ENHANCED_CONSENT_ENABLED'],
};
const GATEWAY_ENV: EnvRequirement[] = [
  'NODE_ENV',
  'LOG_LEVEL',
  'PORT',
  ...Object.keys(SERVICE_URL_VARS),
  JWT_PUBLIC,
  'APP_URL',
  'COOKIE_SECURE',
  'RATE_LIMIT_AUTH_MAX',
  'RATE_LIMIT_AUTH_WINDOW_MS',
  'WEB_DIST_DIR',
];
const requiredEnv = (app: App): EnvRequirement[] =>
  app.kind === 'gateway' ? GATEWAY_ENV : [...SERVICE_ENV, ...(EXTRA_ENV[app.name] ?? [])];

/** Requirements not met by a set of variable names, as readable strings. */
function missingEnv(app: App, has: (name: string) => boolean): string[] {
  return requiredEnv(app)
    .filter((req) => !(Array.isArray(req) ? req.some(has) : has(req)))
    .map((req) => (Array.isArray(req) ? req.join(' or ') : req));
}

/** "host:port" pairs of a comma-separated broker list. */
function brokerHosts(list: string): { host: string; port: number }[] {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((hp) => {
      const [host = '', port] = hp.split(':');
      return { host, port: Number(port) };
    });
}

function httpUrl(value: string): URL | undefined {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u : undefined;
  } catch {
    return undefined;
  }
}
const urlPort = (u: URL): number => (u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80);

function rootWorkspaces(): string[] {
  return asArray<string>(JSON.parse(readText('package.json')).workspaces);
}

// ---------------------------------------------------------------------------------------
// docker-compose.yml
// ---------------------------------------------------------------------------------------

const COMPOSE_FILE = 'docker-compose.yml';

interface ComposeService {
  name: string;
  raw: Json;
  env: Record<string, unknown>;
  /** service name -> condition */
  dependsOn: Record<string, string>;
  /** host ports published, container ports they map to */
  ports: { published?: number; target: number }[];
  volumes: { type: string; source?: string; target: string; readOnly: boolean }[];
}

function loadCompose(): { raw: Json; services: Map<string, ComposeService> } {
  // Compose supports YAML merge keys (<<: *anchor); resolve them as compose does.
  const raw = parse(readText(COMPOSE_FILE), { merge: true }) as Json;
  const services = new Map<string, ComposeService>();
  for (const [name, svc] of Object.entries<Json>(raw?.services ?? {})) {
    const env: Record<string, unknown> = {};
    if (Array.isArray(svc.environment)) {
      for (const item of svc.environment as string[]) {
        const i = item.indexOf('=');
        if (i < 0) env[item] = undefined;
        else env[item.slice(0, i)] = item.slice(i + 1);
      }
    } else if (isObject(svc.environment)) {
      Object.assign(env, svc.environment);
    }
    const dependsOn: Record<string, string> = {};
    if (Array.isArray(svc.depends_on)) for (const d of svc.depends_on as string[]) dependsOn[d] = 'service_started';
    else if (isObject(svc.depends_on))
      for (const [d, v] of Object.entries<Json>(svc.depends_on)) dependsOn[d] = v?.condition ?? 'service_started';
    const ports = asArray(svc.ports).map((p: Json) => {
      if (isObject(p)) return { published: p.published ? Number(p.published) : undefined, target: Number(p.target) };
      // ${VAR:-default} publishes the default unless the variable is set.
      const parts = String(p)
        .replace(/\$\{[A-Z_][A-Z0-9_]*:-([^}]*)\}/g, '$1')
        .split('/')[0]!
        .split(':');
      const target = Number(parts[parts.length - 1]);
      const published = parts.length >= 2 ? Number(parts[parts.length - 2]) : undefined;
      return { published, target };
    });
    const volumes = asArray(svc.volumes).map((v: Json) => {
      if (isObject(v))
        return {
          type: String(v.type ?? 'volume'),
          source: v.source,
          target: String(v.target),
          readOnly: !!v.read_only,
        };
      const [source = '', target = '', mode = ''] = String(v).split(':');
      const isPath = source.startsWith('.') || source.startsWith('/') || source.startsWith('~');
      return { type: isPath ? 'bind' : 'volume', source, target, readOnly: mode.split(',').includes('ro') };
    });
    services.set(name, { name, raw: svc, env, dependsOn, ports, volumes });
  }
  return { raw, services };
}

function healthcheckTest(svc: ComposeService): string | undefined {
  const hc = svc.raw.healthcheck;
  if (!isObject(hc) || hc.disable === true) return undefined;
  const test = hc.test;
  if (Array.isArray(test)) return test[0] === 'NONE' ? undefined : test.slice(1).join(' ');
  return typeof test === 'string' && test.trim() ? test : undefined;
}

/** Services reachable through depends_on with condition service_healthy. */
function healthyClosure(services: Map<string, ComposeService>, start: string): Set<string> {
  const seen = new Set<string>();
  const stack = [start];
  while (stack.length) {
    const cur = services.get(stack.pop()!);
    if (!cur) continue;
    for (const [dep, cond] of Object.entries(cur.dependsOn)) {
      if (cond === 'service_healthy' && !seen.has(dep)) {
        seen.add(dep);
        stack.push(dep);
      }
    }
  }
  return seen;
}

describe('docker-compose.yml', () => {
  const { raw, services } = loadCompose();
  const at = (svc: string): string => `${COMPOSE_FILE}: service "${svc}"`;
  const imageOf = (svc: ComposeService): string => String(svc.raw.image ?? '');
  const findByImage = (prefix: string): ComposeService | undefined =>
    [...services.values()].find((s) => !s.raw.build && imageOf(s).startsWith(prefix));

  /** The volume of every app's database URL and the root password, which the keys service fills for the database. */
  const mongoAppsVolume = 'mongo-apps';
  /** The volume of one app's own database URL. */
  const mongoUrlVolume = (app: string): string => `mongo-url-${app}`;

  function keysVolume(): string | undefined {
    return services.get('keys')?.volumes.find((v) => v.type === 'volume')?.source;
  }

  test('defines mongo, kafka, maildev, the keys init service and the six apps', () => {
    const expected = ['mongo', 'kafka', 'maildev', 'keys', ...APPS.map((a) => a.name)];
    const missing = expected.filter((n) => !services.has(n)).map((n) => `${at(n)}: is not defined`);
    expect(missing).toEqual([]);
  });

  test('pins the images of the data plane and the keys service', () => {
    const want: Record<string, string> = {
      mongo: 'mongo:7',
      kafka: 'apache/kafka:3.9.1',
      maildev: 'maildev/maildev:2.2.1',
      keys: 'haven/node:24',
    };
    const problems = Object.entries(want)
      .filter(([n, img]) => services.has(n) && imageOf(services.get(n)!) !== img)
      .map(([n, img]) => `${at(n)}: image is "${imageOf(services.get(n)!)}", expected "${img}"`);
    expect(problems).toEqual([]);
  });

  test('every long-running service has a healthcheck, and so does every service_healthy dependency', () => {
    const problems: string[] = [];
    for (const svc of services.values()) {
      const oneShot = svc.name === 'keys' || svc.raw.restart === 'no';
      if (!oneShot && !healthcheckTest(svc)) problems.push(`${at(svc.name)}: has no healthcheck`);
      for (const [dep, cond] of Object.entries(svc.dependsOn)) {
        const target = services.get(dep);
        if (!target) problems.push(`${at(svc.name)}: depends_on "${dep}", which is not a service`);
        else if (cond === 'service_healthy' && !healthcheckTest(target))
          problems.push(`${at(svc.name)}: waits for "${dep}" to be healthy, but "${dep}" has no healthcheck`);
        else if (cond === 'service_completed_successfully' && target.raw.restart && target.raw.restart !== 'no')
          problems.push(
            `${at(svc.name)}: waits for "${dep}" to complete, but "${dep}" restarts (${target.raw.restart})`,
          );
      }
    }
    expect(problems).toEqual([]);
  });

  test('data-plane healthchecks probe the real thing', () => {
    const problems: string[] = [];
    const expectTest = (name: string, re: RegExp, what: string): void => {
      const svc = services.get(name);
      const t = svc ? healthcheckTest(svc) : undefined;
      if (svc && (!t || !re.test(t)))
        problems.push(`${at(name)}: healthcheck should ${what}; it is ${JSON.stringify(t)}`);
    };
    expectTest('mongo', /mongosh.*ping/, 'run mongosh db.runCommand({ping:1})');
    expectTest(
      'kafka',
      /kafka-(broker-api-versions|topics|cluster|metadata-quorum)\.sh|\/dev\/tcp\/127\.0\.0\.1\/9092/,
      'ask the broker with a Kafka CLI tool or connect to its port',
    );
    expectTest('maildev', /\/healthz/, 'GET maildev /healthz');
    expect(problems).toEqual([]);
  });

  test('no stray $ for compose to interpolate (write $$ for a literal dollar)', () => {
    const problems: string[] = [];
    const walk = (v: unknown, where: string): void => {
      if (typeof v === 'string') {
        // allowed: $$ (literal) and ${VAR} / ${VAR:-default} (deliberate interpolation)
        const stripped = v.replace(/\$\$/g, '').replace(/\$\{[A-Z_][A-Z0-9_]*(?::?[-?+][^}]*)?\}/g, '');
        if (stripped.includes('$'))
          problems.push(`${COMPOSE_FILE}: ${where}: contains a "$" compose would interpolate`);
      } else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${where}[${i}]`));
      else if (isObject(v)) for (const [k, x] of Object.entries(v)) walk(x, where ? `${where}.${k}` : k);
    };
    walk(raw, '');
    expect(problems).toEqual([]);
  });

  test.each(APPS)('app $name: runs the image make images builds from tools/docker/Dockerfile', (app) => {
    const svc = services.get(app.name);
    if (!svc) throw new Error(`${at(app.name)}: is not defined`);
    const problems: string[] = [];
    // The build context is staged by tools/containers/images.ts (bundled app + production node_modules).
    if (svc.raw.build) problems.push(`${at(app.name)}: has a build section; the images come from make images`);
    if (imageOf(svc) !== `haven/${app.name}:local`)
      problems.push(`${at(app.name)}: image must be haven/${app.name}:local, is "${imageOf(svc)}"`);
    if (svc.raw.pull_policy !== 'never')
      problems.push(`${at(app.name)}: pull_policy must be never (a local image no registry has)`);
    if (!rootWorkspaces().includes(app.folder))
      problems.push(`${at(app.name)}: ${app.folder} is not a workspace in package.json`);
    const hc = healthcheckTest(svc);
    if (!hc || !hc.includes('/healthz'))
      problems.push(`${at(app.name)}: healthcheck must GET /healthz, is ${JSON.stringify(hc)}`);
    const script = /(\/app\/)?(tools\/docker\/healthcheck\.cjs)/.exec(hc ?? '');
    if (script?.[2] && !fs.existsSync(path.join(ROOT, script[2])))
      problems.push(`${at(app.name)}: healthcheck runs ${script[2]}, which does not exist`);
    expect(problems).toEqual([]);
  });

  test.each(APPS)('app $name: depends on what it needs, healthy', (app) => {
    const svc = services.get(app.name);
    if (!svc) throw new Error(`${at(app.name)}: is not defined`);
    const problems: string[] = [];
    const need = (dep: string, cond: string): void => {
      if (svc.dependsOn[dep] !== cond)
        problems.push(
          `${at(app.name)}: depends_on.${dep}.condition must be ${cond}, is ${JSON.stringify(svc.dependsOn[dep])}`,
        );
    };
    if (svc.volumes.some((v) => v.source === 'jwt-keys' || v.source === keysVolume()))
      need('keys', 'service_completed_successfully');
    if (app.kind === 'service') {
      need('mongo', 'service_healthy');
      need('kafka', 'service_healthy');
    } else {
      for (const target of Object.values(SERVICE_URL_VARS)) need(target, 'service_healthy');
      const closure = healthyClosure(services, app.name);
      for (const dep of ['mongo', 'kafka'])
        if (!closure.has(dep))
          problems.push(`${at(app.name)}: does not (even indirectly) wait for ${dep} to be healthy`);
    }
    if (app.name === 'notification') need('maildev', 'service_healthy');
    expect(problems).toEqual([]);
  });

  test.each(APPS)('app $name: environment is complete and points at real compose services', (app) => {
    const svc = services.get(app.name);
    if (!svc) throw new Error(`${at(app.name)}: is not defined`);
    const env = svc.env;
    const problems: string[] = [];
    const has = (n: string): boolean => env[n] !== undefined && env[n] !== null && env[n] !== '';
    for (const m of missingEnv(app, has)) problems.push(`${at(app.name)}: environment ${m} is not set`);
    for (const [k, v] of Object.entries(env))
      if (typeof v !== 'string' && v !== null && v !== undefined)
        problems.push(`${at(app.name)}: environment ${k} is a ${typeof v} (${String(v)}); quote it`);
    const str = (n: string): string => (typeof env[n] === 'string' ? (env[n] as string) : '');

    if (str('PORT') !== String(app.port))
      problems.push(`${at(app.name)}: PORT must be "${app.port}", is ${JSON.stringify(env.PORT)}`);

    if (app.kind === 'service') {
      if (str('MONGO_DB') !== `haven_${app.name}`)
        problems.push(
          `${at(app.name)}: MONGO_DB must be "haven_${app.name}" (its own database), is ${JSON.stringify(env.MONGO_DB)}`,
        );
      if (str('KAFKA_CLIENT_ID') !== `haven-${app.name}`)
        problems.push(
          `${at(app.name)}: KAFKA_CLIENT_ID must be "haven-${app.name}", is ${JSON.stringify(env.KAFKA_CLIENT_ID)}`,
        );
      const kafka = findByImage('apache/kafka:');
      const advertised = String(kafka?.env.KAFKA_ADVERTISED_LISTENERS ?? '')
        .split(',')
        .map((l) => l.replace(/^[A-Z_]+:\/\//, ''));
      const brokers = brokerHosts(str('KAFKA_BROKERS'));
      if (!brokers.length) problems.push(`${at(app.name)}: KAFKA_BROKERS is empty`);
      for (const b of brokers)
        if (!advertised.includes(`${b.host}:${b.port}`))
          problems.push(
            `${at(app.name)}: KAFKA_BROKERS entry "${b.host}:${b.port}" is not an advertised listener of the kafka service (${advertised.join(', ')})`,
          );
    }

    // The database: the app's own user's URL, from a volume only it and the database mount; never a literal.
    const ownCredentials = mongoUrlVolume(app.name);
    if ('MONGO_URL' in env)
      problems.push(`${at(app.name)}: MONGO_URL is written here; the app signs in as its own user (MONGO_URL_FILE)`);
    const urlFile = str('MONGO_URL_FILE');
    const urlMount = svc.volumes.find((v) => path.posix.dirname(urlFile) === v.target.replace(/\/$/, ''));
    if (!urlFile) problems.push(`${at(app.name)}: MONGO_URL_FILE is not set`);
    else if (urlMount?.source !== ownCredentials || !urlMount.readOnly)
      problems.push(`${at(app.name)}: MONGO_URL_FILE=${urlFile} is not in a read-only mount of "${ownCredentials}"`);
    for (const v of svc.volumes)
      if (v.source === mongoAppsVolume || (v.source?.startsWith('mongo-url-') && v.source !== ownCredentials))
        problems.push(`${at(app.name)}: mounts "${v.source}", database credentials that are not its own`);

    if (app.name === 'notification') {
      const mail = services.get(str('SMTP_HOST'));
      if (!mail) problems.push(`${at(app.name)}: SMTP_HOST "${str('SMTP_HOST')}" is not a compose service`);
      else if (
        imageOf(mail).startsWith('maildev/') &&
        String(mail.env.MAILDEV_SMTP_PORT ?? '1025') !== str('SMTP_PORT')
      )
        problems.push(
          `${at(app.name)}: SMTP_PORT ${str('SMTP_PORT')} is not maildev's SMTP port ${String(mail.env.MAILDEV_SMTP_PORT ?? '1025')}`,
        );
      for (const n of ['SMTP_USER', 'SMTP_PASS'])
        if (!(n in env)) problems.push(`${at(app.name)}: ${n} is not set (set it to "" for no SMTP auth)`);
    }

    if (app.kind === 'gateway') {
      for (const [varName, target] of Object.entries(SERVICE_URL_VARS)) {
        const u = httpUrl(str(varName));
        if (!u) {
          problems.push(`${at(app.name)}: ${varName} ${JSON.stringify(env[varName])} is not an http URL`);
          continue;
        }
        const targetSvc = services.get(u.hostname);
        const targetApp = appNamed(u.hostname);
        if (!targetSvc) problems.push(`${at(app.name)}: ${varName} host "${u.hostname}" is not a compose service`);
        else if (u.hostname !== target)
          problems.push(`${at(app.name)}: ${varName} points at "${u.hostname}", expected "${target}"`);
        else if (String(targetSvc.env.PORT) !== String(urlPort(u)) || (targetApp && targetApp.port !== urlPort(u)))
          problems.push(
            `${at(app.name)}: ${varName} port ${urlPort(u)} is not the PORT of "${u.hostname}" (${String(targetSvc.env.PORT)})`,
          );
        if (u.pathname !== '/graphql')
          problems.push(`${at(app.name)}: ${varName} path must be /graphql, is ${u.pathname}`);
      }
      if (str('WEB_DIST_DIR') !== '/app/web/dist')
        problems.push(`${at(app.name)}: WEB_DIST_DIR must be /app/web/dist (where the image builds the web app)`);
      if (!httpUrl(str('APP_URL'))) problems.push(`${at(app.name)}: APP_URL is not an http(s) URL`);
      else if (httpUrl(str('APP_URL'))!.protocol === 'http:' && str('COOKIE_SECURE') !== 'false')
        problems.push(
          `${at(app.name)}: APP_URL is plain http, so COOKIE_SECURE must be "false" or the session cookie is never sent back`,
        );
    }

    // Key files: each *_FILE must be inside the read-only mount of the volume the keys service fills.
    const keysSvc = services.get('keys');
    const keysVol = keysSvc?.volumes.find((v) => v.type === 'volume');
    for (const varName of ['JWT_PUBLIC_KEY_FILE', 'JWT_PRIVATE_KEY_FILE']) {
      const file = str(varName);
      if (!file) continue;
      const mount = svc.volumes.find((v) => path.posix.dirname(file) === v.target.replace(/\/$/, ''));
      if (!mount) problems.push(`${at(app.name)}: ${varName}=${file} is not inside any mounted volume`);
      else if (!keysVol || mount.source !== keysVol.source)
        problems.push(
          `${at(app.name)}: ${varName}=${file} is mounted from "${mount.source}", not from the keys service's volume "${keysVol?.source}"`,
        );
      else if (!mount.readOnly)
        problems.push(`${at(app.name)}: the key volume "${mount.source}" must be mounted read-only`);
    }
    if (app.name !== 'user' && ('JWT_PRIVATE_KEY_FILE' in env || 'JWT_PRIVATE_KEY' in env))
      problems.push(`${at(app.name)}: only the user service signs sessions; it must not be given the private key`);
    if (app.kind === 'gateway') {
      if ('SERVICE_SECRET' in env || 'SERVICE_SECRET_FILE' in env)
        problems.push(`${at(app.name)}: the service secret is the services' alone; the gateway must not be given it`);
      const serviceSecretDir = path.posix.dirname(
        String(services.get('user')?.env.SERVICE_SECRET_FILE ?? '/etc/haven/service/service-secret'),
      );
      if (svc.volumes.some((v) => v.target.replace(/\/$/, '') === serviceSecretDir))
        problems.push(`${at(app.name)}: mounts ${serviceSecretDir}, the services' own secret`);
    }
    expect(problems).toEqual([]);
  });

  test("the apps' entry points exist (<APP>/src/main.ts)", () => {
    const missing = APPS.filter((a) => !fs.existsSync(path.join(ROOT, a.folder, 'src', 'main.ts'))).map(
      (a) => `${at(a.name)}: ${a.folder}/src/main.ts does not exist (the image would not start)`,
    );
    expect(missing).toEqual([]);
  });

  test('ports are unique; the gateway is published on 4000 and the maildev inbox on 1080', () => {
    const problems: string[] = [];
    const byPort = new Map<string, string>();
    for (const app of APPS) {
      const p = String(services.get(app.name)?.env.PORT);
      if (byPort.has(p)) problems.push(`${at(app.name)}: PORT ${p} is also used by "${byPort.get(p)}"`);
      byPort.set(p, app.name);
    }
    const published = new Map<number, string>();
    for (const svc of services.values())
      for (const p of svc.ports) {
        if (p.published === undefined) continue;
        if (published.has(p.published))
          problems.push(
            `${at(svc.name)}: host port ${p.published} is also published by "${published.get(p.published)}"`,
          );
        published.set(p.published, svc.name);
      }
    const gw = services.get('gateway');
    if (!gw?.ports.some((p) => p.published === 4000 && p.target === Number(gw.env.PORT)))
      problems.push(`${at('gateway')}: must publish host port 4000 to its PORT`);
    if (!services.get('maildev')?.ports.some((p) => p.published === 1080 && p.target === 1080))
      problems.push(`${at('maildev')}: must publish the web inbox on 1080:1080`);
    expect(problems).toEqual([]);
  });

  test('the keys service writes an ES256 pair into the volume the apps mount', () => {
    const keys = services.get('keys');
    if (!keys) throw new Error(`${at('keys')}: is not defined`);
    const problems: string[] = [];
    const vol = keys.volumes.find((v) => v.type === 'volume');
    if (!vol) problems.push(`${at('keys')}: mounts no named volume to write the keys into`);
    else {
      if (vol.readOnly) problems.push(`${at('keys')}: must mount "${vol.source}" writable`);
      if (!isObject(raw.volumes) || !(String(vol.source) in raw.volumes))
        problems.push(`${COMPOSE_FILE}: volume "${vol.source}" is not declared under top-level volumes`);
      const script = JSON.stringify(keys.raw.command ?? '') + JSON.stringify(keys.raw.entrypoint ?? '');
      for (const needle of [
        'generateKeyPairSync',
        "'ec'",
        'P-256',
        `${vol.target}/jwt-private.pem`,
        `${vol.target}/jwt-public.pem`,
        'existsSync',
      ])
        if (!script.includes(needle)) problems.push(`${at('keys')}: command does not contain ${needle}`);
      for (const app of APPS) {
        const env = services.get(app.name)?.env ?? {};
        const wants = [env.JWT_PUBLIC_KEY_FILE, env.JWT_PRIVATE_KEY_FILE].filter(
          (f): f is string => typeof f === 'string',
        );
        for (const f of wants)
          if (!['jwt-public.pem', 'jwt-private.pem'].includes(path.posix.basename(f)))
            problems.push(`${at(app.name)}: reads ${f}, but the keys service writes jwt-public.pem / jwt-private.pem`);
      }
    }
    expect(problems).toEqual([]);
  });

  test('the database signs every app in as a user of its own, made by the same script as in Kubernetes', () => {
    const mongo = services.get('mongo');
    const keys = services.get('keys');
    if (!mongo || !keys) throw new Error(`${COMPOSE_FILE}: no mongo or keys service`);
    const problems: string[] = [];
    if (!mongo.env.MONGO_INITDB_ROOT_USERNAME) problems.push(`${at('mongo')}: MONGO_INITDB_ROOT_USERNAME is not set`);
    if ('MONGO_INITDB_ROOT_PASSWORD' in mongo.env)
      problems.push(`${at('mongo')}: the root password is written here; it belongs in the keys service's file`);
    const appsMount = mongo.volumes.find((v) => v.source === mongoAppsVolume);
    const rootPasswordFile = String(mongo.env.MONGO_INITDB_ROOT_PASSWORD_FILE ?? '');
    if (!appsMount?.readOnly) problems.push(`${at('mongo')}: does not mount "${mongoAppsVolume}" read-only`);
    else if (path.posix.dirname(rootPasswordFile) !== appsMount.target)
      problems.push(`${at('mongo')}: MONGO_INITDB_ROOT_PASSWORD_FILE is not in "${mongoAppsVolume}"`);
    // The script Kubernetes runs (k8s/base/kustomization.yaml's mongodb-init), run by the image on first start.
    const script = 'k8s/base/mongodb-create-users.js';
    if (!readText('k8s/base/kustomization.yaml').includes(script.replace('k8s/base/', '')))
      problems.push(`k8s/base/kustomization.yaml: mongodb-init is not made from ${script}`);
    const init = mongo.volumes.find((v) => v.type === 'bind' && v.source === `./${script}`);
    if (!init?.target.startsWith('/docker-entrypoint-initdb.d/'))
      problems.push(`${at('mongo')}: does not run ./${script} from /docker-entrypoint-initdb.d`);
    const scriptDir = /const dir = '([^']+)'/.exec(readText(script))?.[1];
    if (appsMount && appsMount.target !== scriptDir)
      problems.push(`${at('mongo')}: mounts the app URLs at ${appsMount.target}; the script reads ${scriptDir}`);
    if (mongo.dependsOn.keys !== 'service_completed_successfully')
      problems.push(`${at('mongo')}: does not wait for the keys service to write the passwords`);
    // The keys service writes each app's URL, with its own user and database, for the database and for the app.
    const command = JSON.stringify(keys.raw.command ?? '');
    for (const needle of [`'@mongo:27017/haven_' + app`, 'randomBytes', '.root-password'])
      if (!command.includes(needle)) problems.push(`${at('keys')}: command does not contain ${needle}`);
    const keysApps = /for \(const app of \[([^\]]+)\]\)/.exec(command)?.[1] ?? '';
    for (const app of APPS) {
      if (!keysApps.includes(`'${app.name}'`)) problems.push(`${at('keys')}: makes no database user for ${app.name}`);
      const mount = keys.volumes.find((v) => v.source === mongoUrlVolume(app.name));
      const urlFile = String(services.get(app.name)?.env.MONGO_URL_FILE ?? '');
      if (!mount || mount.readOnly) problems.push(`${at('keys')}: does not write "${mongoUrlVolume(app.name)}"`);
      else if (!command.includes(`'${path.posix.dirname(mount.target)}/' + app + '/${path.posix.basename(urlFile)}'`))
        problems.push(`${at('keys')}: does not write ${app.name}'s URL where it reads it (${urlFile})`);
    }
    expect(problems).toEqual([]);
  });

  /** The volume holding one Kafka user's password: a service's, or the broker admin's. */
  const kafkaPasswordVolume = (name: string): string => `kafka-password-${name}`;

  test('every service signs in to Kafka as its own user, with a password only it reads; the broker checks ACLs', () => {
    const kafka = services.get('kafka');
    const keys = services.get('keys');
    if (!kafka || !keys) throw new Error(`${COMPOSE_FILE}: no kafka or keys service`);
    const problems: string[] = [];
    // The apps' listener (the one advertised as kafka:9092) takes SCRAM sign-in; the others stay inside the broker.
    const protocols = Object.fromEntries(
      String(kafka.env.KAFKA_LISTENER_SECURITY_PROTOCOL_MAP ?? '')
        .split(',')
        .map((pair) => pair.split(':')),
    );
    for (const listener of String(kafka.env.KAFKA_LISTENERS ?? '').split(',')) {
      const [name = '', hostPort = ''] = listener.split('://');
      const host = hostPort.slice(0, hostPort.lastIndexOf(':'));
      if (protocols[name] !== 'SASL_PLAINTEXT' && host !== '127.0.0.1')
        problems.push(`${at('kafka')}: listener ${listener} lets other containers in without signing in`);
    }
    const expected: Record<string, string> = {
      KAFKA_SASL_ENABLED_MECHANISMS: 'SCRAM-SHA-512',
      KAFKA_AUTHORIZER_CLASS_NAME: 'org.apache.kafka.metadata.authorizer.StandardAuthorizer',
      KAFKA_ALLOW_EVERYONE_IF_NO_ACL_FOUND: 'false',
      // ANONYMOUS is the principal of the loopback listeners only (checked above).
      KAFKA_SUPER_USERS: 'User:admin;User:ANONYMOUS',
    };
    for (const [name, value] of Object.entries(expected))
      if (kafka.env[name] !== value) problems.push(`${at('kafka')}: ${name} is ${kafka.env[name]}, not ${value}`);
    if (kafka.dependsOn.keys !== 'service_completed_successfully')
      problems.push(`${at('kafka')}: does not wait for the keys service to write the passwords`);
    const usersMount = kafka.volumes.find((v) => v.source === 'kafka-users');
    if (!usersMount?.readOnly) problems.push(`${at('kafka')}: does not mount "kafka-users" read-only`);
    const format = 'tools/containers/kafka-format-users.sh';
    const formatMount = kafka.volumes.find((v) => v.type === 'bind' && v.source === `./${format}`);
    if (!formatMount || !asArray<string>(kafka.raw.entrypoint).includes(formatMount.target))
      problems.push(`${at('kafka')}: does not make its users with ./${format} before it starts`);
    else if (usersMount && !readText(format).includes(`users=${usersMount.target}\n`))
      problems.push(`${format}: does not read the users from ${usersMount.target}`);
    const command = JSON.stringify(keys.raw.command ?? '');
    const keysNames = /for \(const name of \[([^\]]+)\]\)/.exec(command)?.[1] ?? '';
    for (const name of ['admin', ...producerServices])
      if (!keysNames.includes(`'${name}'`)) problems.push(`${at('keys')}: makes no Kafka password for ${name}`);
    if (!command.includes("'/kafka-users/' + (name === 'admin' ? 'admin' : 'haven-' + name)"))
      problems.push(`${at('keys')}: does not name the broker's users haven-<service>`);
    for (const service of producerServices) {
      const app = services.get(service);
      if (!app) continue;
      if (app.env.KAFKA_SASL_USERNAME !== serviceKafkaUserName(service))
        problems.push(
          `${at(service)}: signs in to Kafka as ${app.env.KAFKA_SASL_USERNAME}, not ${serviceKafkaUserName(service)}`,
        );
      if ('KAFKA_SASL_PASSWORD' in app.env)
        problems.push(`${at(service)}: its Kafka password is written here; it belongs in the keys service's file`);
      const mount = app.volumes.find((v) => v.source === kafkaPasswordVolume(service));
      const file = String(app.env.KAFKA_SASL_PASSWORD_FILE ?? '');
      if (!mount?.readOnly || path.posix.dirname(file) !== mount.target)
        problems.push(`${at(service)}: KAFKA_SASL_PASSWORD_FILE is not in its own "${kafkaPasswordVolume(service)}"`);
      else if (!command.includes(`'/kafka-password/' + name + '/${path.posix.basename(file)}'`))
        problems.push(`${at('keys')}: does not write ${service}'s Kafka password where it reads it (${file})`);
      if (app.dependsOn['kafka-acls'] !== 'service_completed_successfully')
        problems.push(`${at(service)}: starts before the kafka-acls one-shot has given the ACLs`);
    }
    // Each password is read by its owner alone (and the keys service that writes it); all of them by the broker alone.
    const owners: Record<string, string[]> = {
      'kafka-users': ['kafka'],
      [kafkaPasswordVolume('admin')]: ['kafka-acls'],
      ...Object.fromEntries(producerServices.map((service) => [kafkaPasswordVolume(service), [service]])),
    };
    for (const svc of services.values())
      for (const v of svc.volumes)
        if (v.source && v.source in owners && svc.name !== 'keys' && !owners[v.source]!.includes(svc.name))
          problems.push(`${at(svc.name)}: mounts "${v.source}", another's Kafka password`);
    expect(problems).toEqual([]);
  });

  test("the broker's ACLs are kafkaAclsOf's, given from the code by the kafka-acls one-shot as the admin", () => {
    const acls = services.get('kafka-acls');
    if (!acls) throw new Error(`${at('kafka-acls')}: is not defined`);
    const problems: string[] = [];
    const bundled = readText('tools/containers/images.ts');
    if (!/bundle\(kafkaAclsTool, join\(appRoot, 'tools', 'kafka-acls\.js'\)\)/.test(bundled))
      problems.push(`tools/containers/images.ts: does not bundle ${kafkaAclsTool} as /app/tools/kafka-acls.js`);
    if (!/kafkaAclsOf\(service\)/.test(readText(kafkaAclsTool)))
      problems.push(`${kafkaAclsTool}: does not give the ACLs of kafkaAclsOf`);
    if (
      imageOf(acls) !== 'haven/user:local' ||
      JSON.stringify(acls.raw.command) !== '["node","/app/tools/kafka-acls.js"]'
    )
      problems.push(`${at('kafka-acls')}: does not run /app/tools/kafka-acls.js from the user service's image`);
    if (acls.dependsOn.kafka !== 'service_healthy') problems.push(`${at('kafka-acls')}: does not wait for the broker`);
    const mount = acls.volumes.find((v) => v.source === kafkaPasswordVolume('admin'));
    if (acls.env.KAFKA_SASL_USERNAME !== 'admin' || !mount?.readOnly)
      problems.push(`${at('kafka-acls')}: does not sign in as the admin with its password file`);
    else if (path.posix.dirname(String(acls.env.KAFKA_SASL_PASSWORD_FILE)) !== mount.target)
      problems.push(`${at('kafka-acls')}: KAFKA_SASL_PASSWORD_FILE is not in "${kafkaPasswordVolume('admin')}"`);
    expect(problems).toEqual([]);
  });

  test('every named volume a service uses is declared', () => {
    const declared = isObject(raw.volumes) ? Object.keys(raw.volumes) : [];
    const problems: string[] = [];
    for (const svc of services.values())
      for (const v of svc.volumes)
        if (v.type === 'volume' && v.source && !declared.includes(v.source))
          problems.push(`${at(svc.name)}: volume "${v.source}" is not declared under top-level volumes`);
    expect(problems).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------
// tools/docker/Dockerfile, .dockerignore, healthcheck script
// ---------------------------------------------------------------------------------------

interface Instruction {
  op: string;
  args: string;
  line: number;
}

function parseDockerfile(text: string): Instruction[] {
  const out: Instruction[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let line = lines[i]!;
    if (/^\s*(#|$)/.test(line)) continue;
    while (/\\\s*$/.test(line) && i + 1 < lines.length) {
      i++;
      const next = lines[i]!;
      line = line.replace(/\\\s*$/, ' ') + (/^\s*#/.test(next) ? '' : next);
    }
    const m = /^\s*(\w+)\s+(.*)$/s.exec(line);
    if (m) out.push({ op: m[1]!.toUpperCase(), args: m[2]!.trim(), line: start + 1 });
  }
  return out;
}

describe('tools/docker/Dockerfile', () => {
  const FILE = 'tools/docker/Dockerfile';
  const text = fs.existsSync(path.join(ROOT, FILE)) ? readText(FILE) : '';
  const ins = parseDockerfile(text);
  const at = (i: Instruction): string => `${FILE}:${i.line}: ${i.op}`;
  const globalArgs: Record<string, string> = {};
  for (const i of ins) {
    if (i.op === 'FROM') break;
    const m = /^(\w+)(?:=(.*))?$/.exec(i.args);
    if (i.op === 'ARG' && m) globalArgs[m[1]!] = (m[2] ?? '').replace(/^"|"$/g, '');
  }
  const stages: Instruction[][] = [];
  for (const i of ins) {
    if (i.op === 'FROM') stages.push([]);
    stages[stages.length - 1]?.push(i);
  }
  const finalStage = stages[stages.length - 1] ?? [];

  test('builds on haven/app-deps:local (Node 24 LTS + production node_modules), one stage', () => {
    expect(text).not.toBe('');
    const problems: string[] = [];
    const froms = ins.filter((i) => i.op === 'FROM');
    for (const f of froms) {
      const image = f.args.replace(/\$\{?(\w+)\}?/g, (_, v: string) => globalArgs[v] ?? `\${${v}}`);
      if (image !== 'haven/app-deps:local')
        problems.push(`${at(f)}: base image is "${image}", expected haven/app-deps:local`);
    }
    if (froms.length !== 1) problems.push(`${FILE}: ${froms.length} stages; the context arrives built`);
    expect(problems).toEqual([]);
  });

  test('installs nothing itself: the bundled app is copied onto the production node_modules of its base', () => {
    const problems: string[] = [];
    if (ins.some((i) => i.op === 'RUN' && /\bnpm (ci|install)\b/.test(i.args)))
      problems.push(`${FILE}: runs npm; the base image carries the production node_modules (no dev dependencies)`);
    const deps = readText('tools/containers/app-deps.Dockerfile');
    if (!/^COPY node_modules\/? \/app\/node_modules/m.test(deps))
      problems.push('tools/containers/app-deps.Dockerfile: does not copy node_modules to /app/node_modules');
    const copies = finalStage.filter((i) => i.op === 'COPY').map((i) => i.args);
    if (!copies.some((c) => /^app\/?\s+\/app\/?$/.test(c)))
      problems.push(`${FILE}: the staged app/ is not copied to /app`);
    expect(problems).toEqual([]);
  });

  test('takes APP and starts the bundled <APP>/src/main.js with node as a non-root user', () => {
    const problems: string[] = [];
    if (!ins.some((i) => i.op === 'ARG' && /^APP\b/.test(i.args))) problems.push(`${FILE}: no ARG APP`);
    const finalEnv = finalStage
      .filter((i) => i.op === 'ENV')
      .map((i) => i.args)
      .join(' ');
    if (!/WEB_DIST_DIR=\/app\/web\/dist\b/.test(finalEnv))
      problems.push(`${FILE}: final stage does not set WEB_DIST_DIR=/app/web/dist`);
    if (!/HOST=0\.0\.0\.0\b/.test(finalEnv)) problems.push(`${FILE}: final stage does not set HOST=0.0.0.0`);
    const user = [...finalStage].reverse().find((i) => i.op === 'USER');
    if (!user) problems.push(`${FILE}: final stage has no USER (it would run as root)`);
    else if (/^(root|0)(:|$)/.test(user.args)) problems.push(`${at(user)}: runs as root`);
    else if (!/^\d+(:\d+)?$/.test(user.args))
      problems.push(`${at(user)}: use a numeric uid, so Kubernetes runAsNonRoot can verify it`);
    const cmd = [...finalStage].reverse().find((i) => i.op === 'CMD' || i.op === 'ENTRYPOINT');
    if (!cmd || /tsx/.test(cmd.args) || !/src\/main\.js/.test(cmd.args))
      problems.push(`${FILE}: final stage must start <APP>/src/main.js with node, CMD is ${JSON.stringify(cmd?.args)}`);
    const hc = finalStage.find((i) => i.op === 'HEALTHCHECK');
    if (!hc) problems.push(`${FILE}: final stage has no HEALTHCHECK`);
    else if (!/\/healthz/.test(hc.args)) problems.push(`${at(hc)}: must probe /healthz`);
    expect(problems).toEqual([]);
  });

  test('package-lock.json is in sync with every workspace package.json (else the image installs unlocked versions)', () => {
    const LOCK = 'package-lock.json';
    if (!fs.existsSync(path.join(ROOT, LOCK))) throw new Error(`${LOCK}: missing; npm ci needs it`);
    const lock = JSON.parse(readText(LOCK));
    const pkgs: Record<string, Json> = lock.packages ?? {};
    const problems: string[] = [];
    if (!(lock.lockfileVersion >= 2))
      problems.push(`${LOCK}: lockfileVersion ${lock.lockfileVersion}; regenerate with npm 7 or later`);
    const lockWs = new Set(asArray<string>(pkgs['']?.workspaces));
    for (const ws of rootWorkspaces())
      if (!lockWs.has(ws)) problems.push(`${LOCK}: workspace ${ws} is not in the lockfile (run npm install)`);
    for (const ws of ['', ...rootWorkspaces()]) {
      const pj = fs.existsSync(path.join(ROOT, ws, 'package.json'))
        ? JSON.parse(readText(path.join(ws, 'package.json')))
        : null;
      const entry = pkgs[ws];
      if (!pj || !entry) {
        problems.push(`${LOCK}: no entry for workspace "${ws || '(root)'}"`);
        continue;
      }
      for (const type of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies']) {
        const want: Record<string, string> = pj[type] ?? {};
        const have: Record<string, string> = entry[type] ?? {};
        for (const name of new Set([...Object.keys(want), ...Object.keys(have)]))
          if (want[name] !== have[name])
            problems.push(
              `${LOCK}: ${ws || '(root)'} ${type}.${name} is ${JSON.stringify(want[name])} in ${ws ? `${ws}/` : ''}package.json but ${JSON.stringify(have[name])} in the lockfile (run npm install)`,
            );
      }
    }
    // Every required dependency of every locked package must itself be locked. (Optional
    // platform builds may be missing: see the comment on npm ci in tools/docker/Dockerfile.)
    const resolves = (from: string, name: string): boolean => {
      let dir = from;
      for (;;) {
        if (pkgs[`${dir ? `${dir}/` : ''}node_modules/${name}`]) return true;
        if (!dir) return false;
        const i = dir.lastIndexOf('/node_modules/');
        dir = i >= 0 ? dir.slice(0, i) : '';
      }
    };
    for (const [key, entry] of Object.entries(pkgs)) {
      if (entry.link) continue;
      const isWorkspace = !key.includes('node_modules/');
      const deps = { ...(entry.dependencies ?? {}), ...(isWorkspace ? (entry.devDependencies ?? {}) : {}) };
      for (const name of Object.keys(deps))
        if (!resolves(key, name))
          problems.push(`${LOCK}: ${key || '(root)'} needs ${name}, which is not in the lockfile`);
    }
    expect(problems).toEqual([]);
  });

  test("the gateway's checked-in supergraph exists (make images puts it in the gateway's context)", () => {
    expect(fs.existsSync(path.join(ROOT, 'gateway', 'supergraph.graphql'))).toBe(true);
  });

  test('the healthcheck script exists and knows every app port', () => {
    const SCRIPT = 'tools/docker/healthcheck.cjs';
    const problems: string[] = [];
    if (!fs.existsSync(path.join(ROOT, SCRIPT))) problems.push(`${SCRIPT}: missing`);
    else {
      const src = readText(SCRIPT);
      for (const app of APPS)
        if (!new RegExp(`['"]?${app.folder.replace('/', '\\/')}['"]?\\s*:\\s*${app.port}\\b`).test(src))
          problems.push(`${SCRIPT}: default port of ${app.folder} is not ${app.port}`);
      if (!src.includes("'/healthz'")) problems.push(`${SCRIPT}: default path is not /healthz`);
    }
    expect(problems).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------
// k8s/: each overlay as kustomize builds it (make k8s-check's Go program, tools/containers/k8s-check.ts).
// make k8s-check already fails a build kustomize refuses, an object the Kubernetes API does not accept (unknown or
// duplicate fields, wrong types), a missing app, missing resources, app probes not on /healthz and /readyz, an app
// that may run as root or write its root file system, a secret in a ConfigMap or in a literal, MONGO_URL not from the
// app's own Secret, missing network policies, and production without a PodDisruptionBudget and an autoscaler per app.
// The checks below are the rest: how the objects refer to each other and what each app is given.
// ---------------------------------------------------------------------------------------

const K8S = path.join(ROOT, 'k8s');
const OVERLAYS = ['dev', 'production'];

interface Res {
  /** the overlay the resource was built for, as k8s/overlays/<name> */
  file: string;
  doc: Json;
}
interface Build {
  name: string;
  resources: Res[];
}

const kindName = (d: Json): string => `${d?.kind}/${d?.metadata?.name}`;
const where = (r: Res): string => `${r.file}: ${kindName(r.doc)}`;

let rendered: Record<string, string> | undefined;
const builds = new Map<string, Build>();

/** An overlay's objects, as kustomize builds them. */
function overlay(name: string): Build {
  const cached = builds.get(name);
  if (cached) return cached;
  if (!rendered) throw new Error('the overlays were not rendered (see the error of beforeAll)');
  const text = rendered[name];
  if (text === undefined) throw new Error(`k8s/overlays/${name} was not rendered`);
  const file = `k8s/overlays/${name}`;
  const resources = parseAllDocuments(text)
    .map((d) => d.toJS())
    .filter((doc) => doc !== null && doc !== undefined)
    .map((doc) => ({ file, doc }));
  const build = { name, resources };
  builds.set(name, build);
  return build;
}

// The first run builds the Go program (Go fetches its pinned modules): minutes on a cold machine, then cached.
beforeAll(() => {
  rendered = renderKubernetes();
}, 15 * 60_000);

function splitImage(image: string): [string, string | undefined] {
  const at = image.indexOf('@');
  const noDigest = at >= 0 ? image.slice(0, at) : image;
  const colon = noDigest.lastIndexOf(':');
  if (colon > noDigest.lastIndexOf('/')) return [noDigest.slice(0, colon), noDigest.slice(colon + 1)];
  return [noDigest, undefined];
}

const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'DaemonSet'];
const podSpec = (doc: Json): Json | undefined =>
  WORKLOAD_KINDS.includes(doc?.kind) ? doc.spec?.template?.spec : undefined;
const podLabels = (doc: Json): Record<string, string> => doc?.spec?.template?.metadata?.labels ?? {};
function podContainers(doc: Json): Json[] {
  const spec = podSpec(doc);
  return spec ? [...asArray(spec.initContainers), ...asArray(spec.containers)] : [];
}
const selects = (selector: Record<string, string> | undefined, labels: Record<string, string>): boolean =>
  !!selector && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);

function allYamlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...allYamlFiles(p));
    else if (/\.ya?ml$/.test(e.name)) out.push(p);
  }
  return out;
}

function kustomizationFiles(): string[] {
  return allYamlFiles(K8S).filter((f) => /^kustomization\.ya?ml$/.test(path.basename(f)));
}

/** The files a kustomization names (resources, components and patches), folders left out. */
function filesNamed(kustomizationFile: string): string[] {
  const dir = path.dirname(kustomizationFile);
  const k = (parse(fs.readFileSync(kustomizationFile, 'utf8')) ?? {}) as Json;
  const entries = [
    ...asArray<string>(k.resources),
    ...asArray<string>(k.components),
    ...asArray<string>(k.patchesStrategicMerge),
    ...asArray(k.patches).map((p: Json) => p?.path),
    ...asArray(k.patchesJson6902).map((p: Json) => p?.path),
  ].filter((entry): entry is string => typeof entry === 'string');
  return entries.map((entry) => path.resolve(dir, entry)).filter((p) => fs.existsSync(p) && fs.statSync(p).isFile());
}

/**
 * Names of the Secrets/ConfigMaps a build defines, with their keys; null keys: a Secret generated from an operator's
 * git-ignored env file, built from a placeholder (PLACEHOLDER=…) here, so its keys are not known.
 */
function definedConfig(build: Build, kind: 'Secret' | 'ConfigMap'): Map<string, string[] | null> {
  const out = new Map<string, string[] | null>();
  for (const r of build.resources)
    if (r.doc.kind === kind) {
      const keys = Object.keys({ ...(r.doc.data ?? {}), ...(r.doc.stringData ?? {}), ...(r.doc.binaryData ?? {}) });
      out.set(r.doc.metadata?.name, keys.includes('PLACEHOLDER') ? null : keys);
    }
  // Strimzi's user operator makes a Secret named like each SCRAM KafkaUser, holding its password.
  if (kind === 'Secret')
    for (const r of build.resources)
      if (r.doc.kind === 'KafkaUser' && r.doc.spec?.authentication?.type === 'scram-sha-512')
        out.set(r.doc.metadata?.name, ['password', 'sasl.jaas.config']);
  return out;
}

interface ConfigRef {
  kind: 'Secret' | 'ConfigMap';
  name: string;
  key?: string;
  optional: boolean;
  how: string;
}

function configRefs(doc: Json): ConfigRef[] {
  const refs: ConfigRef[] = [];
  const spec = podSpec(doc);
  if (!spec) return refs;
  for (const c of podContainers(doc)) {
    for (const ef of asArray(c.envFrom)) {
      if (ef.configMapRef)
        refs.push({
          kind: 'ConfigMap',
          name: ef.configMapRef.name,
          optional: !!ef.configMapRef.optional,
          how: `container ${c.name} envFrom`,
        });
      if (ef.secretRef)
        refs.push({
          kind: 'Secret',
          name: ef.secretRef.name,
          optional: !!ef.secretRef.optional,
          how: `container ${c.name} envFrom`,
        });
    }
    for (const e of asArray(c.env)) {
      const cm = e.valueFrom?.configMapKeyRef;
      const s = e.valueFrom?.secretKeyRef;
      if (cm)
        refs.push({ kind: 'ConfigMap', name: cm.name, key: cm.key, optional: !!cm.optional, how: `env ${e.name}` });
      if (s) refs.push({ kind: 'Secret', name: s.name, key: s.key, optional: !!s.optional, how: `env ${e.name}` });
    }
  }
  for (const v of asArray(spec.volumes)) {
    for (const [kind, src, name] of [
      ['Secret', v.secret, v.secret?.secretName],
      ['ConfigMap', v.configMap, v.configMap?.name],
    ] as const) {
      if (!src) continue;
      const items = asArray(src.items);
      const base = { kind, name: String(name), optional: !!src.optional, how: `volume ${v.name}` };
      if (!items.length) refs.push(base);
      for (const item of items) refs.push({ ...base, key: String(item.key) });
    }
    for (const src of asArray(v.projected?.sources)) {
      if (src.secret)
        refs.push({ kind: 'Secret', name: src.secret.name, optional: !!src.secret.optional, how: `volume ${v.name}` });
      if (src.configMap)
        refs.push({
          kind: 'ConfigMap',
          name: src.configMap.name,
          optional: !!src.configMap.optional,
          how: `volume ${v.name}`,
        });
    }
  }
  return refs;
}

/** The environment a container ends up with; null keys = "a Secret with unknown keys is also loaded". */
interface EffectiveEnv {
  values: Map<string, { value?: string; from: 'literal' | 'ConfigMap' | 'Secret' }>;
  unknownSecretKeys: boolean;
}

function effectiveEnv(build: Build, container: Json): EffectiveEnv {
  const values: EffectiveEnv['values'] = new Map();
  let unknownSecretKeys = false;
  const cms = new Map<string, Record<string, string>>();
  for (const r of build.resources) if (r.doc.kind === 'ConfigMap') cms.set(r.doc.metadata?.name, r.doc.data ?? {});
  const secrets = definedConfig(build, 'Secret');
  for (const ef of asArray(container.envFrom)) {
    if (ef.configMapRef)
      for (const [k, v] of Object.entries(cms.get(ef.configMapRef.name) ?? {}))
        values.set(`${ef.prefix ?? ''}${k}`, { value: String(v), from: 'ConfigMap' });
    if (ef.secretRef) {
      const keys = secrets.get(ef.secretRef.name);
      if (keys === null || keys === undefined) unknownSecretKeys = true;
      for (const k of keys ?? []) values.set(`${ef.prefix ?? ''}${k}`, { from: 'Secret' });
    }
  }
  for (const e of asArray(container.env)) {
    if (e.valueFrom?.secretKeyRef) values.set(e.name, { from: 'Secret' });
    else if (e.valueFrom?.configMapKeyRef)
      values.set(e.name, {
        value: cms.get(e.valueFrom.configMapKeyRef.name)?.[e.valueFrom.configMapKeyRef.key],
        from: 'ConfigMap',
      });
    else values.set(e.name, { value: e.value === undefined ? undefined : String(e.value), from: 'literal' });
  }
  return { values, unknownSecretKeys };
}

/** The Service (and port) a cluster host name + port resolves to. */
function resolveService(build: Build, host: string, port: number): { ok: boolean; why?: string } {
  const short = host.replace(/\.svc(\.cluster\.local)?$/, '').split('.')[0]!;
  const svc = build.resources.find((r) => r.doc.kind === 'Service' && r.doc.metadata?.name === short);
  if (svc) {
    const ports = asArray(svc.doc.spec?.ports).map((p: Json) => Number(p.port));
    return ports.includes(port)
      ? { ok: true }
      : { ok: false, why: `Service "${short}" has no port ${port} (it has ${ports.join(', ')})` };
  }
  // Strimzi creates <cluster>-kafka-bootstrap with one port per listener.
  const kafka = build.resources.find(
    (r) =>
      r.doc.kind === 'Kafka' &&
      r.doc.apiVersion?.startsWith('kafka.strimzi.io/') &&
      `${r.doc.metadata?.name}-kafka-bootstrap` === short,
  );
  if (kafka) {
    const ports = asArray(kafka.doc.spec?.kafka?.listeners).map((l: Json) => Number(l.port));
    return ports.includes(port)
      ? { ok: true }
      : { ok: false, why: `Kafka "${kafka.doc.metadata.name}" has no listener on port ${port}` };
  }
  return { ok: false, why: `no Service "${short}" is defined` };
}

describe('k8s/', () => {
  test('no kustomization reads a remote resource; every images and replicas entry of an overlay changes something', () => {
    const problems: string[] = [];
    for (const file of kustomizationFiles()) {
      const k = (parse(fs.readFileSync(file, 'utf8')) ?? {}) as Json;
      for (const entry of [...asArray<string>(k.resources), ...asArray<string>(k.components)])
        if (/^[a-z]+:\/\//.test(entry) || entry.startsWith('github.com/'))
          problems.push(`${rel(file)}: remote resource "${entry}" (deploys must be reproducible from the repository)`);
    }
    // kustomize passes over an images or replicas entry that matches nothing: a renamed app would keep its old image.
    for (const name of OVERLAYS) {
      const file = `k8s/overlays/${name}/kustomization.yaml`;
      const k = (parse(readText(file)) ?? {}) as Json;
      const build = overlay(name);
      const images = build.resources.flatMap((r) => podContainers(r.doc).map((c: Json) => String(c.image)));
      for (const img of asArray(k.images)) {
        const wanted = `${img.newName ?? img.name}${img.digest ? `@${img.digest}` : img.newTag ? `:${img.newTag}` : ''}`;
        if (
          !images.some((image) => image === wanted || (!img.newTag && !img.digest && splitImage(image)[0] === wanted))
        )
          problems.push(`${file}: images entry "${img.name}" matches no container image (no ${wanted} in the build)`);
      }
      for (const rep of asArray(k.replicas)) {
        const target = build.resources.find(
          (r) => ['Deployment', 'StatefulSet'].includes(r.doc.kind) && r.doc.metadata?.name === rep.name,
        );
        if (!target || Number(target.doc.spec?.replicas) !== Number(rep.count))
          problems.push(`${file}: replicas entry "${rep.name}" matches no Deployment or StatefulSet`);
      }
    }
    expect(problems).toEqual([]);
  });

  test('every manifest file under k8s/ is used by a kustomization (no forgotten file)', () => {
    const used = new Set(kustomizationFiles().flatMap((file) => filesNamed(file).map(rel)));
    const orphans = allYamlFiles(K8S)
      .map(rel)
      .filter((f) => !/\/kustomization\.ya?ml$/.test(f) && !used.has(f))
      .map((f) => `${f}: not listed in any kustomization's resources, components or patches`);
    expect(orphans).toEqual([]);
  });

  test('no key material is committed; generator sources live in git-ignored files', () => {
    const problems: string[] = [];
    const walk = (dir: string): void => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(fs.readFileSync(p, 'utf8')) && !isGitIgnored(p))
          problems.push(`${rel(p)}: contains a private key and is not git-ignored`);
      }
    };
    walk(K8S);
    for (const file of kustomizationFiles()) {
      const d = path.dirname(file);
      const k = parse(fs.readFileSync(file, 'utf8')) ?? {};
      for (const gen of asArray(k.secretGenerator)) {
        const sources = [...asArray<string>(gen.files).map((f) => f.split('=').pop()!), ...asArray<string>(gen.envs)];
        for (const s of sources)
          if (!isGitIgnored(path.resolve(d, s)))
            problems.push(
              `${rel(file)}: Secret "${gen.name}" reads ${rel(path.resolve(d, s))}, which git does not ignore`,
            );
      }
    }
    expect(problems).toEqual([]);
  });

  describe.each(OVERLAYS)('overlays/%s', (name) => {
    let build: Build;
    let workloads: Res[];
    beforeAll(() => {
      build = overlay(name);
      workloads = build.resources.filter((r) => WORKLOAD_KINDS.includes(r.doc.kind));
    });
    const deploymentOf = (app: App): Res | undefined =>
      build.resources.find((r) => r.doc.kind === 'Deployment' && r.doc.metadata?.name === app.name);
    const haven = (r: Res): App | undefined =>
      r.doc.kind === 'Deployment' ? appNamed(r.doc.metadata?.name) : undefined;

    test('volume file modes are file modes (0440 is written 288)', () => {
      const problems: string[] = [];
      for (const r of workloads)
        for (const v of asArray(podSpec(r.doc)?.volumes)) {
          const mode = v.secret?.defaultMode ?? v.configMap?.defaultMode;
          if (mode !== undefined && (typeof mode !== 'number' || mode < 0 || mode > 0o777))
            problems.push(`${where(r)}: volume ${v.name} defaultMode ${mode} is not a file mode (write 0440 as 288)`);
        }
      expect(problems).toEqual([]);
    });

    test('every workload has probes on a container port and a selector matching its pods; each app its own port', () => {
      const problems: string[] = [];
      for (const r of workloads) {
        const selector = r.doc.spec?.selector?.matchLabels;
        if (!selects(selector, podLabels(r.doc)))
          problems.push(
            `${where(r)}: spec.selector.matchLabels ${JSON.stringify(selector)} does not match the pod labels`,
          );
        for (const c of asArray(podSpec(r.doc)?.containers)) {
          const ctr = `${where(r)}: container ${c.name}`;
          if (!c.image) problems.push(`${ctr}: no image`);
          const ports = asArray(c.ports);
          for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
            const p = c[probe];
            if (!p) {
              if (probe !== 'startupProbe') problems.push(`${ctr}: no ${probe}`);
              continue;
            }
            const port = p.httpGet?.port ?? p.tcpSocket?.port ?? p.grpc?.port;
            if (port !== undefined && !ports.some((cp: Json) => cp.name === port || cp.containerPort === port))
              problems.push(`${ctr}: ${probe} port ${port} is not a container port`);
          }
        }
        const app = haven(r);
        if (app) {
          const c = asArray(podSpec(r.doc)?.containers)[0];
          const ctr = `${where(r)}: container ${c?.name}`;
          if (c?.startupProbe && c.startupProbe.httpGet?.path !== '/healthz')
            problems.push(`${ctr}: startupProbe must GET /healthz`);
          if (!asArray(c?.ports).some((p: Json) => p.containerPort === app.port))
            problems.push(`${ctr}: does not expose containerPort ${app.port}`);
        }
      }
      expect(problems).toEqual([]);
    });

    test('the apps never run as uid 0 and have a writable /tmp (the root file system is read-only)', () => {
      const problems: string[] = [];
      for (const app of APPS) {
        const r = deploymentOf(app);
        if (!r) continue;
        const spec = podSpec(r.doc);
        for (const c of asArray(spec?.containers)) {
          const ctr = `${where(r)}: container ${c.name}`;
          if ((c.securityContext?.runAsUser ?? spec?.securityContext?.runAsUser) === 0)
            problems.push(`${ctr}: runAsUser is 0`);
          const tmp = asArray(c.volumeMounts).find((m: Json) => m.mountPath === '/tmp');
          const vol = tmp && asArray(spec?.volumes).find((v: Json) => v.name === tmp.name);
          if (!vol || !vol.emptyDir || tmp.readOnly)
            problems.push(`${ctr}: no writable emptyDir at /tmp (Node writes its temporary files there)`);
        }
      }
      expect(problems).toEqual([]);
    });

    test('every workload has a Service selecting its pods, and every Service port targets a container port', () => {
      const problems: string[] = [];
      const services = build.resources.filter((r) => r.doc.kind === 'Service');
      for (const w of workloads) {
        if (!services.some((s) => selects(s.doc.spec?.selector, podLabels(w.doc))))
          problems.push(`${where(w)}: no Service selects its pods (labels ${JSON.stringify(podLabels(w.doc))})`);
        if (w.doc.kind === 'StatefulSet') {
          const governing = services.find((s) => s.doc.metadata?.name === w.doc.spec?.serviceName);
          if (!governing) problems.push(`${where(w)}: serviceName "${w.doc.spec?.serviceName}" is not a Service`);
          else if (governing.doc.spec?.clusterIP !== 'None')
            problems.push(`${where(governing)}: governs a StatefulSet, so it must be headless (clusterIP: None)`);
        }
      }
      for (const s of services) {
        const selected = workloads.filter((w) => selects(s.doc.spec?.selector, podLabels(w.doc)));
        if (!selected.length) {
          problems.push(`${where(s)}: selector ${JSON.stringify(s.doc.spec?.selector)} matches no workload's pods`);
          continue;
        }
        for (const p of asArray(s.doc.spec?.ports)) {
          const target = p.targetPort ?? p.port;
          for (const w of selected) {
            const cports = asArray(podSpec(w.doc)?.containers).flatMap((c: Json) => asArray(c.ports));
            if (!cports.some((cp: Json) => cp.name === target || cp.containerPort === target))
              problems.push(
                `${where(s)}: port ${p.name ?? p.port} targetPort ${target} is not a container port of ${where(w)}`,
              );
          }
        }
        const app = appNamed(s.doc.metadata?.name);
        if (app && app.kind === 'service' && !asArray(s.doc.spec?.ports).some((p: Json) => Number(p.port) === app.port))
          problems.push(`${where(s)}: must listen on ${app.port} (the port the gateway's URLs use)`);
      }
      expect(problems).toEqual([]);
    });

    test('every ConfigMap and Secret a workload references is defined, with the keys it takes', () => {
      const problems: string[] = [];
      const defined = { ConfigMap: definedConfig(build, 'ConfigMap'), Secret: definedConfig(build, 'Secret') };
      for (const w of workloads)
        for (const ref of configRefs(w.doc)) {
          if (ref.optional) continue;
          if (!defined[ref.kind].has(ref.name)) {
            problems.push(
              `${where(w)}: ${ref.how} references ${ref.kind} "${ref.name}", which the build does not define`,
            );
            continue;
          }
          const keys = defined[ref.kind].get(ref.name);
          if (ref.key && keys && !keys.includes(ref.key))
            problems.push(
              `${where(w)}: ${ref.how} needs key "${ref.key}" of ${ref.kind} "${ref.name}", which has ${keys.join(', ')}`,
            );
        }
      expect(problems).toEqual([]);
    });

    test('every app gets every variable it requires, with the right per-app values', () => {
      const problems: string[] = [];
      const dbs = new Map<string, string>();
      for (const app of APPS) {
        const r = deploymentOf(app);
        const c = r && asArray(podSpec(r.doc)?.containers)[0];
        if (!r || !c) continue;
        const ctr = `${where(r)}: container ${c.name}`;
        const env = effectiveEnv(build, c);
        const value = (n: string): string | undefined => env.values.get(n)?.value;
        const has = (n: string): boolean => env.values.has(n) && (env.values.get(n)!.from === 'Secret' || !!value(n));
        for (const m of missingEnv(app, has)) problems.push(`${ctr}: ${m} is not set (env, or envFrom haven-config)`);
        if (value('PORT') !== String(app.port))
          problems.push(`${ctr}: PORT must be "${app.port}", is ${JSON.stringify(value('PORT'))}`);
        if (app.kind === 'service') {
          if (value('MONGO_DB') !== `haven_${app.name}`)
            problems.push(`${ctr}: MONGO_DB must be "haven_${app.name}", is ${JSON.stringify(value('MONGO_DB'))}`);
          const db = value('MONGO_DB') ?? '';
          if (dbs.has(db))
            problems.push(`${ctr}: MONGO_DB "${db}" is also used by ${dbs.get(db)} (each service owns its database)`);
          dbs.set(db, app.name);
          if (value('KAFKA_CLIENT_ID') !== `haven-${app.name}`)
            problems.push(
              `${ctr}: KAFKA_CLIENT_ID must be "haven-${app.name}", is ${JSON.stringify(value('KAFKA_CLIENT_ID'))}`,
            );
        }
        if (app.name === 'notification') {
          for (const n of ['SMTP_USER', 'SMTP_PASS']) {
            const v = env.values.get(n);
            if (v && v.from !== 'Secret')
              problems.push(`${ctr}: ${n} comes from a ${v.from}; SMTP credentials belong in a Secret`);
            if (!v && !env.unknownSecretKeys) problems.push(`${ctr}: ${n} is not provided by any Secret`);
          }
          if (!env.unknownSecretKeys && !env.values.has('SMTP_USER'))
            problems.push(`${ctr}: no Secret provides the SMTP credentials`);
        }
        if (app.name !== 'user' && (env.values.has('JWT_PRIVATE_KEY') || env.values.has('JWT_PRIVATE_KEY_FILE')))
          problems.push(`${ctr}: only the user service signs sessions; it must not get the private key`);
        if (app.kind === 'gateway' && (env.values.has('SERVICE_SECRET') || env.values.has('SERVICE_SECRET_FILE')))
          problems.push(`${ctr}: the service secret is the services' alone; the gateway must not get it`);
        // *_FILE variables must name a file of a mounted Secret volume.
        const spec = podSpec(r.doc);
        for (const [n, v] of env.values) {
          if (!/_FILE$/.test(n) || !v.value) continue;
          const dir = path.posix.dirname(v.value);
          const file = path.posix.basename(v.value);
          const mount = asArray(c.volumeMounts).find((m: Json) => m.mountPath.replace(/\/$/, '') === dir);
          const vol = mount && asArray(spec?.volumes).find((x: Json) => x.name === mount.name);
          if (!vol) {
            problems.push(`${ctr}: ${n}=${v.value} is not inside a mounted volume`);
            continue;
          }
          if (vol.secret) {
            const items = asArray(vol.secret.items);
            const secretKeys = definedConfig(build, 'Secret').get(vol.secret.secretName);
            const files = items.length ? items.map((i: Json) => i.path) : secretKeys;
            if (files && !files.includes(file))
              problems.push(
                `${ctr}: ${n}=${v.value}, but Secret "${vol.secret.secretName}" mounted at ${dir} has no ${file}`,
              );
          }
        }
      }
      expect(problems).toEqual([]);
    });

    test('URLs in haven-config resolve to Services of this build (gateway → subgraphs, MongoDB, Kafka, SMTP)', () => {
      const cm = build.resources.find((r) => r.doc.kind === 'ConfigMap' && r.doc.metadata?.name === 'haven-config');
      if (!cm) throw new Error(`k8s/overlays/${name}: ConfigMap haven-config is not defined`);
      const data: Record<string, string> = cm.doc.data ?? {};
      const problems: string[] = [];
      const at = (k: string): string => `${where(cm)}: ${k}=${JSON.stringify(data[k])}`;
      for (const [varName, target] of Object.entries(SERVICE_URL_VARS)) {
        const u = httpUrl(data[varName] ?? '');
        if (!u) {
          problems.push(`${at(varName)}: not an http URL`);
          continue;
        }
        const short = u.hostname.split('.')[0]!;
        const res = resolveService(build, u.hostname, urlPort(u));
        if (!res.ok) problems.push(`${at(varName)}: ${res.why}`);
        if (short !== target) problems.push(`${at(varName)}: points at "${short}", expected the ${target} Service`);
        if (u.pathname !== '/graphql') problems.push(`${at(varName)}: path must be /graphql`);
      }
      // Each app signs in to MongoDB with the URL in its own Secret (make k8s-check checks where it comes from).
      if ('MONGO_URL' in data)
        problems.push(`${at('MONGO_URL')}: a shared, credential-less database URL; each app's is in its own Secret`);
      if (!resolveService(build, 'mongodb', 27017).ok)
        problems.push(`k8s/overlays/${name}: no Service mongodb on port 27017`);
      const brokers = brokerHosts(data.KAFKA_BROKERS ?? '');
      if (!brokers.length) problems.push(`${at('KAFKA_BROKERS')}: empty`);
      for (const b of brokers) {
        const res = resolveService(build, b.host, b.port);
        if (!res.ok && !b.host.includes('.')) problems.push(`${at('KAFKA_BROKERS')}: ${res.why}`);
      }
      const smtp = data.SMTP_HOST ?? '';
      if (!smtp.includes('.')) {
        // a bare name is an in-cluster Service; a dotted name is an external relay
        const res = resolveService(build, smtp, Number(data.SMTP_PORT));
        if (!res.ok) problems.push(`${at('SMTP_HOST')}: ${res.why}`);
      }
      if (!httpUrl(data.APP_URL ?? '')) problems.push(`${at('APP_URL')}: not an http(s) URL`);
      expect(problems).toEqual([]);
    });

    test("every service signs in to Kafka as its own KafkaUser, whose ACLs are kafkaAclsOf's; none reads another's password", () => {
      const problems: string[] = [];
      const kafka = build.resources.find((r) => r.doc.kind === 'Kafka');
      if (!kafka) throw new Error(`k8s/overlays/${name}: no Kafka resource`);
      for (const listener of asArray(kafka.doc.spec?.kafka?.listeners))
        if (listener.authentication?.type !== 'scram-sha-512')
          problems.push(`${where(kafka)}: listener ${listener.name} does not sign clients in with scram-sha-512`);
      if (kafka.doc.spec?.kafka?.authorization?.type !== 'simple')
        problems.push(`${where(kafka)}: authorization is not simple (the broker would not check ACLs)`);
      if (!isObject(kafka.doc.spec?.entityOperator?.userOperator))
        problems.push(`${where(kafka)}: no user operator to make the KafkaUsers`);
      const users = build.resources.filter((r) => r.doc.kind === 'KafkaUser');
      const names: string[] = [
        ...producerServices.map((service) => serviceKafkaUserName(service)),
        restoreKafkaUserName,
      ];
      for (const user of users)
        if (!names.includes(user.doc.metadata?.name))
          problems.push(`${where(user)}: is no service's user (kafka-access.ts lists none by that name)`);
      // The restore's user may only move the erasure groups back (restoreAcls), and no workload holds its password.
      const restoreUser = users.find((r) => r.doc.metadata?.name === restoreKafkaUserName);
      if (!restoreUser || !isDeepStrictEqual(restoreUser.doc.spec, restoreKafkaUser().spec))
        problems.push(`${name}: KafkaUser ${restoreKafkaUserName} is not restoreAcls's (${kafkaUsersFile} is stale)`);
      for (const service of producerServices) {
        const user = users.find((r) => r.doc.metadata?.name === serviceKafkaUserName(service));
        const want = kafkaUserOf(service);
        if (!user)
          problems.push(`${name}: no KafkaUser ${want.metadata.name} (run npx tsx tools/containers/kafka-users.ts)`);
        else {
          if (user.doc.metadata?.labels?.['strimzi.io/cluster'] !== kafka.doc.metadata?.name)
            problems.push(`${where(user)}: does not belong to Kafka/${kafka.doc.metadata?.name}`);
          if (!isDeepStrictEqual(user.doc.spec, want.spec))
            problems.push(
              `${where(user)}: is not what kafkaAclsOf gives ${service} (${kafkaUsersFile} is stale: run npx tsx tools/containers/kafka-users.ts)`,
            );
        }
        const deployment = build.resources.find((r) => r.doc.kind === 'Deployment' && r.doc.metadata?.name === service);
        const env = asArray(podContainers(deployment?.doc)[0]?.env);
        const username = env.find((e: Json) => e.name === 'KAFKA_SASL_USERNAME');
        const password = env.find((e: Json) => e.name === 'KAFKA_SASL_PASSWORD')?.valueFrom?.secretKeyRef;
        if (username?.value !== serviceKafkaUserName(service))
          problems.push(
            `${name}: Deployment/${service} signs in to Kafka as ${username?.value}, not ${serviceKafkaUserName(service)}`,
          );
        if (password?.name !== serviceKafkaUserName(service) || password?.key !== 'password')
          problems.push(`${name}: Deployment/${service} does not read KAFKA_SASL_PASSWORD from its KafkaUser's Secret`);
      }
      // A Kafka user's Secret is read by its own service's pods alone.
      for (const w of workloads)
        for (const ref of configRefs(w.doc))
          if (ref.kind === 'Secret' && names.includes(ref.name) && ref.name !== `haven-${w.doc.metadata?.name}`)
            problems.push(`${where(w)}: ${ref.how} reads ${ref.name}, another service's Kafka password`);
      expect(problems).toEqual([]);
    });

    test('Ingress, autoscaler, disruption budgets and Strimzi resources point at things that exist', () => {
      const problems: string[] = [];
      const services = build.resources.filter((r) => r.doc.kind === 'Service');
      for (const r of build.resources) {
        if (r.doc.kind === 'Ingress') {
          const backends: Json[] = [];
          if (r.doc.spec?.defaultBackend) backends.push(r.doc.spec.defaultBackend);
          for (const rule of asArray(r.doc.spec?.rules))
            for (const p of asArray(rule.http?.paths)) backends.push(p.backend);
          if (!backends.length) problems.push(`${where(r)}: routes nowhere`);
          for (const b of backends) {
            const svc = services.find((s) => s.doc.metadata?.name === b?.service?.name);
            const port = b?.service?.port;
            if (!svc) problems.push(`${where(r)}: backend Service "${b?.service?.name}" is not defined`);
            else if (
              !asArray(svc.doc.spec?.ports).some((p: Json) =>
                port?.name !== undefined ? p.name === port.name : Number(p.port) === Number(port?.number),
              )
            )
              problems.push(
                `${where(r)}: backend port ${JSON.stringify(port)} is not a port of Service "${svc.doc.metadata.name}"`,
              );
          }
        }
        if (r.doc.kind === 'HorizontalPodAutoscaler') {
          const t = r.doc.spec?.scaleTargetRef;
          if (!build.resources.some((x) => x.doc.kind === t?.kind && x.doc.metadata?.name === t?.name))
            problems.push(`${where(r)}: scaleTargetRef ${t?.kind}/${t?.name} is not defined`);
          if (!(r.doc.spec?.minReplicas <= r.doc.spec?.maxReplicas))
            problems.push(`${where(r)}: minReplicas > maxReplicas`);
          const target = workloads.find((w) => w.doc.kind === t?.kind && w.doc.metadata?.name === t?.name);
          if (target && asArray(podSpec(target.doc)?.containers).some((c: Json) => !c.resources?.requests?.cpu))
            problems.push(`${where(r)}: scales on CPU but ${where(target)} has no CPU request`);
        }
        if (
          r.doc.kind === 'PodDisruptionBudget' &&
          !workloads.some((w) => selects(r.doc.spec?.selector?.matchLabels, podLabels(w.doc)))
        )
          problems.push(`${where(r)}: selector matches no workload's pods`);
        if (r.doc.kind === 'KafkaNodePool') {
          const cluster = r.doc.metadata?.labels?.['strimzi.io/cluster'];
          const kafka = build.resources.find((x) => x.doc.kind === 'Kafka' && x.doc.metadata?.name === cluster);
          if (!kafka) problems.push(`${where(r)}: label strimzi.io/cluster="${cluster}" names no Kafka resource`);
          if (
            !asArray(r.doc.spec?.roles).includes('broker') &&
            !build.resources.some(
              (x) => x.doc.kind === 'KafkaNodePool' && asArray(x.doc.spec?.roles).includes('broker'),
            )
          )
            problems.push(`${where(r)}: no node pool has the broker role`);
        }
        if (r.doc.kind === 'Kafka') {
          if (r.doc.apiVersion !== 'kafka.strimzi.io/v1beta2')
            problems.push(`${where(r)}: apiVersion must be kafka.strimzi.io/v1beta2`);
          const a = r.doc.metadata?.annotations ?? {};
          if (a['strimzi.io/node-pools'] !== 'enabled' || a['strimzi.io/kraft'] !== 'enabled')
            problems.push(
              `${where(r)}: needs annotations strimzi.io/node-pools: enabled and strimzi.io/kraft: enabled (KRaft with node pools)`,
            );
          if (
            !build.resources.some(
              (x) =>
                x.doc.kind === 'KafkaNodePool' &&
                x.doc.metadata?.labels?.['strimzi.io/cluster'] === r.doc.metadata?.name,
            )
          )
            problems.push(`${where(r)}: no KafkaNodePool belongs to it`);
          const pools = build.resources.filter(
            (x) => x.doc.kind === 'KafkaNodePool' && asArray(x.doc.spec?.roles).includes('broker'),
          );
          const brokers = pools.reduce((n, p) => n + Number(p.doc.spec?.replicas ?? 0), 0);
          const cfg = r.doc.spec?.kafka?.config ?? {};
          for (const k of [
            'offsets.topic.replication.factor',
            'transaction.state.log.replication.factor',
            'default.replication.factor',
          ])
            if (cfg[k] !== undefined && Number(cfg[k]) > brokers)
              problems.push(`${where(r)}: ${k}=${cfg[k]} but only ${brokers} broker(s)`);
          for (const k of ['min.insync.replicas', 'transaction.state.log.min.isr'])
            if (cfg[k] !== undefined && Number(cfg[k]) > Number(cfg['default.replication.factor'] ?? brokers))
              problems.push(
                `${where(r)}: ${k}=${cfg[k]} exceeds the replication factor; producers with acks=all would fail`,
              );
        }
      }
      expect(problems).toEqual([]);
    });
  });

  test('production: 2+ replicas, gateway autoscaled, production settings, TLS on the public host, pinned images', () => {
    const build = overlay('production');
    const problems: string[] = [];
    const K = 'k8s/overlays/production';
    for (const app of APPS) {
      const r = build.resources.find((x) => x.doc.kind === 'Deployment' && x.doc.metadata?.name === app.name);
      if (r && !(Number(r.doc.spec?.replicas) >= 2))
        problems.push(`${K}: ${where(r)}: replicas is ${r.doc.spec?.replicas}, expected 2 or more`);
    }
    const hpa = build.resources.find(
      (r) =>
        r.doc.kind === 'HorizontalPodAutoscaler' &&
        r.doc.spec?.scaleTargetRef?.kind === 'Deployment' &&
        r.doc.spec?.scaleTargetRef?.name === 'gateway',
    );
    if (!hpa) problems.push(`${K}: no HorizontalPodAutoscaler for Deployment/gateway`);
    else if (!(hpa.doc.spec?.minReplicas >= 2)) problems.push(`${K}: ${where(hpa)}: minReplicas must be at least 2`);
    const cm = build.resources.find((r) => r.doc.kind === 'ConfigMap' && r.doc.metadata?.name === 'haven-config');
    const data: Record<string, string> = cm?.doc.data ?? {};
    if (data.NODE_ENV !== 'production')
      problems.push(`${K}: haven-config NODE_ENV is ${JSON.stringify(data.NODE_ENV)}, expected "production"`);
    if (data.COOKIE_SECURE !== 'true')
      problems.push(`${K}: haven-config COOKIE_SECURE is ${JSON.stringify(data.COOKIE_SECURE)}, expected "true"`);
    const appUrl = httpUrl(data.APP_URL ?? '');
    if (appUrl?.protocol !== 'https:')
      problems.push(`${K}: haven-config APP_URL must be https (secure cookies), is ${JSON.stringify(data.APP_URL)}`);
    const ingress = build.resources.find((r) => r.doc.kind === 'Ingress');
    const hosts = asArray(ingress?.doc.spec?.rules).map((r: Json) => r.host);
    const tlsHosts = asArray(ingress?.doc.spec?.tls).flatMap((t: Json) => asArray(t.hosts));
    if (appUrl && !hosts.includes(appUrl.hostname))
      problems.push(`${K}: the Ingress does not serve APP_URL's host ${appUrl.hostname} (hosts: ${hosts.join(', ')})`);
    if (appUrl && !tlsHosts.includes(appUrl.hostname))
      problems.push(`${K}: the Ingress has no TLS for ${appUrl?.hostname}`);
    for (const r of build.resources)
      for (const c of podContainers(r.doc)) {
        const [image, tag] = splitImage(String(c.image));
        if (!tag || tag === 'latest') problems.push(`${K}: ${where(r)}: image ${c.image} has no pinned tag`);
        if (/^haven\//.test(image))
          problems.push(`${K}: ${where(r)}: image ${c.image} was not mapped to a registry by images:`);
      }
    expect(problems).toEqual([]);
  });

  test('dev: one replica each, maildev as the mail server, locally built images', () => {
    const build = overlay('dev');
    const problems: string[] = [];
    const K = 'k8s/overlays/dev';
    for (const r of build.resources.filter((x) => x.doc.kind === 'Deployment'))
      if (Number(r.doc.spec?.replicas ?? 1) !== 1)
        problems.push(`${K}: ${where(r)}: replicas is ${r.doc.spec.replicas}, expected 1`);
    const maildev = build.resources.find((r) => r.doc.kind === 'Deployment' && r.doc.metadata?.name === 'maildev');
    if (!maildev) problems.push(`${K}: no maildev Deployment`);
    else if (!podContainers(maildev.doc).some((c: Json) => c.image === 'maildev/maildev:2.2.1'))
      problems.push(`${K}: ${where(maildev)}: image must be maildev/maildev:2.2.1`);
    const cm = build.resources.find((r) => r.doc.kind === 'ConfigMap' && r.doc.metadata?.name === 'haven-config');
    if (cm?.doc.data?.SMTP_HOST !== 'maildev') problems.push(`${K}: haven-config SMTP_HOST must be maildev`);
    for (const app of APPS) {
      const r = build.resources.find((x) => x.doc.kind === 'Deployment' && x.doc.metadata?.name === app.name);
      const image = r && podContainers(r.doc)[0]?.image;
      if (r && image !== `haven/${app.name}:local`)
        problems.push(
          `${K}: ${where(r)}: image is ${image}, expected haven/${app.name}:local (what docker compose build tags)`,
        );
    }
    expect(problems).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------

/** Whether git ignores a path (it need not exist). Falls back to "ignored" outside a git checkout. */
function isGitIgnored(p: string): boolean {
  const r = spawnSync('git', ['check-ignore', '-q', '--no-index', rel(p)], { cwd: ROOT });
  if (r.status === 0) return true;
  if (r.status === 1) return false;
  return true; // not a git checkout (e.g. an exported tarball): nothing can be committed from it anyway
}
