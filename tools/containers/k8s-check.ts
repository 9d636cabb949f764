/**
 * `make k8s-check`: every overlay in k8s/overlays built with kustomize and validated by the small Go
 * checker in tools/containers/k8s-check (strict decoding against the k8s.io/api types pinned in its
 * go.mod, then Haven's policy: probes, resources, non-root and read-only, PDB and HPA per app in
 * production, only the gateway and the callers the catalog declares reaching the subgraphs, only Haven's apps
 * reaching MongoDB and only its services reaching Kafka, MongoDB with authentication and each app's database URL
 * from a Secret of its own, no secrets in ConfigMaps, the deployed apps = the service list in
 * services/platform/src/catalog.ts).
 *
 * The overlays' Secrets are generated from git-ignored files an operator creates; the check runs on a
 * copy of k8s/ where the missing ones are placeholders. renderKubernetes gives what kustomize builds for each
 * overlay, from the same copy, for tests that read the deployed objects.
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { callersOf, gatewayEntry, serviceCatalog } from '../../services/platform/src/catalog';
import { cacheDir, repoRoot } from '../infra/paths';
import { hashInputs } from './images';

const checkerSource = join(__dirname, 'k8s-check');
/** The data stores' names in k8s/base: MongoDB's StatefulSet and the Strimzi Kafka resource. */
const dataStores = { mongodb: 'mongodb', kafka: 'haven' };
/** Overlays that must carry a PodDisruptionBudget and a HorizontalPodAutoscaler per app. */
export const SCALED_OVERLAYS = ['production'];

/** Builds the Go checker once per source version (Go fetches the pinned modules from its proxy). */
export function buildChecker(): string {
  const inputs = hashInputs(['go.mod', 'go.sum', 'main.go'].map((file) => join(checkerSource, file)));
  const binary = join(cacheDir(), 'containers', 'bin', `k8s-check-${inputs}`);
  if (existsSync(binary)) return binary;
  mkdirSync(dirname(binary), { recursive: true });
  // Two test files may build at once (jest workers): each writes its own file and moves it into place whole.
  const partial = `${binary}.${process.pid}.tmp`;
  const built = spawnSync('go', ['build', '-o', partial, '.'], {
    cwd: checkerSource,
    encoding: 'utf8',
    env: { ...process.env, CGO_ENABLED: '0' },
  });
  if (built.error && (built.error as NodeJS.ErrnoException).code === 'ENOENT') {
    throw new Error(
      'the k8s checker (tools/containers/k8s-check) is a Go program and `go` is not on PATH: install Go 1.22 or later and run again',
    );
  }
  if (built.status !== 0) throw new Error(`go build of the k8s checker failed:\n${built.stderr}`);
  renameSync(partial, binary);
  return binary;
}

interface Kustomization {
  secretGenerator?: Array<{ files?: string[]; envs?: string[] }>;
}

/** A copy of a k8s/ folder where every Secret source file an overlay names exists. */
export function stageManifests(k8sDir: string): string {
  const staged = mkdtempSync(join(tmpdir(), 'haven-k8s-'));
  cpSync(k8sDir, staged, { recursive: true });
  const overlaysDir = join(staged, 'overlays');
  for (const overlay of readdirSync(overlaysDir)) {
    const file = join(overlaysDir, overlay, 'kustomization.yaml');
    if (!existsSync(file)) continue;
    const kustomization = parse(readFileSync(file, 'utf8')) as Kustomization;
    for (const generator of kustomization.secretGenerator ?? []) {
      const sources = [
        ...(generator.files ?? []).map((entry) => ({ path: entry.split('=').pop() ?? entry, env: false })),
        ...(generator.envs ?? []).map((path) => ({ path, env: true })),
      ];
      for (const source of sources) {
        const target = join(overlaysDir, overlay, source.path);
        if (existsSync(target)) continue;
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, source.env ? 'PLACEHOLDER=not-a-real-secret\n' : 'placeholder, not a real secret\n');
      }
    }
  }
  return staged;
}

export interface CheckResult {
  ok: boolean;
  output: string;
}

/** The overlays of a staged k8s/ folder, as the checker's -overlay arguments. */
function overlayFlags(staged: string): string[] {
  const overlaysDir = join(staged, 'overlays');
  return readdirSync(overlaysDir)
    .filter((name) => existsSync(join(overlaysDir, name, 'kustomization.yaml')))
    .flatMap((name) => ['-overlay', `${name}=${join(overlaysDir, name)}`]);
}

/**
 * What kustomize builds for each overlay of a k8s/ folder (the repository's by default), by overlay name: YAML
 * as `kustomize build` prints it, generated Secrets from placeholder sources where the real ones are git-ignored.
 */
export function renderKubernetes(k8sDir = join(repoRoot, 'k8s')): Record<string, string> {
  const binary = buildChecker();
  const staged = stageManifests(k8sDir);
  const out = mkdtempSync(join(tmpdir(), 'haven-k8s-render-'));
  try {
    const flags = overlayFlags(staged);
    const result = spawnSync(binary, ['-render', out, ...flags], { encoding: 'utf8' });
    if (result.status !== 0) {
      throw new Error(`kustomize could not build the overlays:\n${result.stderr.replaceAll(`${staged}/`, 'k8s/')}`);
    }
    return Object.fromEntries(
      readdirSync(out).map((file) => [file.replace(/\.yaml$/, ''), readFileSync(join(out, file), 'utf8')]),
    );
  } finally {
    rmSync(staged, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
}

/** Runs the checker on every overlay of a k8s/ folder (the repository's by default). */
export function checkKubernetes(k8sDir = join(repoRoot, 'k8s')): CheckResult {
  const binary = buildChecker();
  const staged = stageManifests(k8sDir);
  try {
    const services = serviceCatalog.map((service) => service.name);
    const apps = [...services, gatewayEntry.name];
    const result = spawnSync(
      binary,
      [
        '-apps',
        apps.join(','),
        '-gateway',
        gatewayEntry.name,
        '-callers',
        serviceCatalog.map(({ name }) => `${name}=${callersOf(name).join('+')}`).join(','),
        // Every service keeps its own database and the gateway its rate limits in MongoDB; only the services
        // publish and consume events.
        '-stores',
        `${dataStores.mongodb}=${apps.join('+')}`,
        // ... and each signs in to MongoDB with a user of its own.
        '-mongodb',
        dataStores.mongodb,
        '-kafka',
        `${dataStores.kafka}=${services.join('+')}`,
        '-scaled',
        SCALED_OVERLAYS.join(','),
        ...overlayFlags(staged),
      ],
      { encoding: 'utf8' },
    );
    return { ok: result.status === 0, output: `${result.stdout}${result.stderr}`.replaceAll(`${staged}/`, 'k8s/') };
  } finally {
    rmSync(staged, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const result = checkKubernetes();
  process.stdout.write(result.output);
  process.exit(result.ok ? 0 : 1);
}
