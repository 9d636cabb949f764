/**
 * `make k8s-check` passes on the manifests as they are, and fails on each kind of mistake it exists
 * to catch: a field the Kubernetes API does not have, a missing probe, a subgraph reachable from
 * outside the gateway, a data store reachable from pods that do not use it, Kafka without sign-in or ACLs, a
 * secret in a ConfigMap, MongoDB without authentication, an app's database URL without credentials or not from its
 * own Secret, a backup job that runs as root.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../infra/paths';
import { buildChecker, checkKubernetes } from '../k8s-check';

const copies: string[] = [];

type Edit = (text: string) => string;

/** A copy of k8s/ with one file edited (or several: more [file, edit] pairs). */
function brokenManifests(file: string, edit: Edit, ...more: Array<[string, Edit]>): string {
  const dir = mkdtempSync(join(tmpdir(), 'haven-k8s-broken-'));
  copies.push(dir);
  cpSync(join(repoRoot, 'k8s'), dir, { recursive: true });
  for (const [name, change] of [[file, edit] as [string, Edit], ...more]) {
    const path = join(dir, name);
    const before = readFileSync(path, 'utf8');
    const after = change(before);
    if (after === before) throw new Error(`the edit of ${name} changed nothing: the fixture is out of date`);
    writeFileSync(path, after);
  }
  return dir;
}

/** A service's kustomization (k8s/base/<service>/) with one more patch of its Deployment. */
function withPatch(service: string, patch: string): [string, Edit] {
  const entry = [
    '  - target:',
    '      kind: Deployment',
    `      name: ${service}`,
    '    patch: |-',
    ...patch.split('\n').map((line) => `      ${line}`),
    '',
  ].join('\n');
  return [
    `base/${service}/kustomization.yaml`,
    (text) =>
      text.includes('\npatches:\n')
        ? text.replace('\npatches:\n', `\npatches:\n${entry}`)
        : `${text}patches:\n${entry}`,
  ];
}

/** A strategic-merge patch of a service's container env. */
const envPatch = (service: string, ...env: string[]): string =>
  [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    `  name: ${service}`,
    'spec:',
    '  template:',
    '    spec:',
    '      containers:',
    '        - name: server',
    '          env:',
    ...env.map((line) => `            ${line}`),
  ].join('\n');

// The first run builds the Go checker (and Go fetches its pinned modules): minutes on a cold machine.
beforeAll(() => buildChecker(), 15 * 60_000);
afterAll(() => copies.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

it('passes every overlay of the repository', () => {
  const result = checkKubernetes();
  expect(result.output).toContain('every overlay passes');
  expect(result.output).toMatch(/production: \d+ objects built and decoded strictly/);
  expect(result.ok).toBe(true);
}, 60_000);

it('fails on a field the Kubernetes API does not have', () => {
  const result = checkKubernetes(
    brokenManifests('base/service/service.yaml', (text) => text.replace('  replicas: 1', '  replica: 1')),
  );
  expect(result.ok).toBe(false);
  expect(result.output).toMatch(/Deployment\/quote does not match the Kubernetes API: .*unknown field "spec\.replica"/);
}, 60_000);

it('fails when an app has no readiness probe', () => {
  const result = checkKubernetes(
    brokenManifests(...withPatch('billing', '- op: remove\n  path: /spec/template/spec/containers/0/readinessProbe')),
  );
  expect(result.ok).toBe(false);
  expect(result.output).toContain('Deployment/billing container server: readiness probe must GET /readyz');
}, 60_000);

it('fails when a subgraph can be reached by pods other than the gateway', () => {
  const openPolicy = [
    '---',
    'apiVersion: networking.k8s.io/v1',
    'kind: NetworkPolicy',
    'metadata:',
    '  name: notification-open',
    'spec:',
    '  podSelector:',
    '    matchLabels:',
    '      app: notification',
    '  ingress:',
    '    - {}',
    '',
  ].join('\n');
  const result = checkKubernetes(brokenManifests('base/network-policies.yaml', (text) => text + openPolicy));
  expect(result.ok).toBe(false);
  expect(result.output).toContain('NetworkPolicy/notification-open ingress rule 0 lets anyone reach notification');
}, 60_000);

it('fails when a service that asks another is left out of its policy, or one that does not is let in', () => {
  const withoutNotification = checkKubernetes(
    brokenManifests('base/network-policies.yaml', (text) =>
      text.replace(/ {8}- podSelector:\n {12}matchLabels:\n {14}app: notification\n/, ''),
    ),
  );
  expect(withoutNotification.ok).toBe(false);
  expect(withoutNotification.output).toContain('no NetworkPolicy rule lets notification reach user, which it asks');

  const notificationToBilling = checkKubernetes(
    brokenManifests('base/network-policies.yaml', (text) =>
      text.replace(
        /( {14}app: compliance\n)( {6}ports:\n {8}- protocol: TCP\n {10}port: 4003)/,
        '$1        - podSelector:\n            matchLabels:\n              app: notification\n$2',
      ),
    ),
  );
  expect(notificationToBilling.ok).toBe(false);
  expect(notificationToBilling.output).toContain(
    'NetworkPolicy/billing-callers ingress rule 0 lets pods other than gateway, quote, compliance reach billing',
  );
}, 120_000);

it('fails when a subgraph has no NetworkPolicy at all', () => {
  const result = checkKubernetes(
    brokenManifests(
      'base/network-policies.yaml',
      (text) => text.replace(/( {2}podSelector:\n {4}matchLabels:\n {6})app: quote\n/, '$1app: quote-old\n'),
      // Prometheus's scrape policy selects every service too: without quote, nothing does.
      [
        'base/prometheus.yaml',
        (text) =>
          text.replace(
            'values: [user, quote, billing, notification, compliance]',
            'values: [user, billing, notification, compliance]',
          ),
      ],
    ),
  );
  expect(result.ok).toBe(false);
  expect(result.output).toContain('no NetworkPolicy limits who reaches quote; only gateway may');
}, 60_000);

it('fails when MongoDB can be reached by any pod, or has no policy at all', () => {
  const openPolicy = [
    '---',
    'apiVersion: networking.k8s.io/v1',
    'kind: NetworkPolicy',
    'metadata:',
    '  name: mongodb-open',
    'spec:',
    '  podSelector:',
    '    matchLabels:',
    '      app: mongodb',
    '  ingress:',
    '    - {}',
    '',
  ].join('\n');
  const open = checkKubernetes(brokenManifests('base/network-policies.yaml', (text) => text + openPolicy));
  expect(open.ok).toBe(false);
  expect(open.output).toContain(
    'NetworkPolicy/mongodb-open ingress rule 0 lets anyone reach mongodb; only user, quote, billing, notification, compliance, gateway may',
  );

  const unguarded = checkKubernetes(
    brokenManifests('base/network-policies.yaml', (text) => text.replace(/\n---\n# MongoDB:[\s\S]*$/, '\n')),
  );
  expect(unguarded.ok).toBe(false);
  expect(unguarded.output).toContain('no NetworkPolicy limits who reaches mongodb');
}, 120_000);

it('fails when Kafka lets any pod connect, or a pod that is not a service', () => {
  const anyPod = checkKubernetes(
    brokenManifests('base/kafka.yaml', (text) => text.replace(/ {8}networkPolicyPeers:\n(?: {10}.*\n)+/, '')),
  );
  expect(anyPod.ok).toBe(false);
  expect(anyPod.output).toContain(
    'Kafka/haven listener plain lets any pod connect (no networkPolicyPeers); only user, quote, billing, notification, compliance may',
  );

  const gatewayToo = checkKubernetes(
    brokenManifests('base/kafka.yaml', (text) =>
      text.replace(
        'values: [user, quote, billing, notification, compliance]',
        'values: [user, quote, billing, notification, compliance, gateway]',
      ),
    ),
  );
  expect(gatewayToo.ok).toBe(false);
  expect(gatewayToo.output).toContain(
    'Kafka/haven listener plain lets pods other than user, quote, billing, notification, compliance connect',
  );
}, 120_000);

it('fails when Kafka lets clients in without signing in, or does not check ACLs', () => {
  const anonymous = checkKubernetes(
    brokenManifests('base/kafka.yaml', (text) => text.replace(/ {8}authentication:\n {10}type: scram-sha-512\n/, '')),
  );
  expect(anonymous.ok).toBe(false);
  expect(anonymous.output).toContain(
    'Kafka/haven listener plain lets clients connect without signing in (no authentication)',
  );

  const noAcls = checkKubernetes(
    brokenManifests('base/kafka.yaml', (text) => text.replace(/ {4}authorization:\n {6}type: simple\n/, '')),
  );
  expect(noAcls.ok).toBe(false);
  expect(noAcls.output).toContain('Kafka/haven has no authorization (ACLs): any client may publish on any topic');
}, 120_000);

it('fails when a secret is put in a ConfigMap', () => {
  const result = checkKubernetes(
    brokenManifests('base/config.yaml', (text) =>
      text.replace("  LOG_LEVEL: 'info'\n", "  LOG_LEVEL: 'info'\n  SMTP_PASS: 'hunter2'\n"),
    ),
  );
  expect(result.ok).toBe(false);
  expect(result.output).toContain('ConfigMap/haven-config holds SMTP_PASS: secrets belong in a Secret');
}, 60_000);

it('fails when MongoDB runs without authentication, or without a root user from a Secret', () => {
  const open = checkKubernetes(
    brokenManifests('base/mongodb.yaml', (text) => text.replace("args: ['--auth', ", 'args: [')),
  );
  expect(open.ok).toBe(false);
  expect(open.output).toContain(
    'dev: StatefulSet/mongodb container mongodb runs MongoDB without authentication: any pod that reaches it reads every database',
  );

  const noRoot = checkKubernetes(
    brokenManifests('base/mongodb.yaml', (text) =>
      text.replace(/ {12}- name: MONGO_INITDB_ROOT_PASSWORD\n(?: {14}.*\n)+/, ''),
    ),
  );
  expect(noRoot.ok).toBe(false);
  expect(noRoot.output).toContain(
    'production: StatefulSet/mongodb container mongodb: MONGO_INITDB_ROOT_PASSWORD must come from a Secret',
  );
}, 120_000);

it("fails when an app's database URL is a literal, comes from a ConfigMap, or is another app's", () => {
  const literal = checkKubernetes(
    brokenManifests(
      ...withPatch(
        'quote',
        envPatch('quote', '- name: MONGO_URL', "  value: 'mongodb://mongodb:27017'", '  valueFrom: null'),
      ),
    ),
  );
  expect(literal.ok).toBe(false);
  expect(literal.output).toContain(
    "dev: Deployment/quote container server: MONGO_URL is a literal; take it from a Secret of the app's own",
  );

  const configMap = checkKubernetes(
    brokenManifests(...withPatch('quote', envPatch('quote', '- name: MONGO_URL', '  $patch: delete')), [
      'base/config.yaml',
      (text) =>
        text.replace(
          "  LOG_LEVEL: 'info'\n",
          "  LOG_LEVEL: 'info'\n  MONGO_URL: 'mongodb://haven_quote:hunter2@mongodb:27017/haven_quote'\n",
        ),
    ]),
  );
  expect(configMap.ok).toBe(false);
  expect(configMap.output).toContain(
    'dev: Deployment/quote container server: MONGO_URL comes from ConfigMap haven-config',
  );
  expect(configMap.output).toContain(
    'dev: ConfigMap/haven-config MONGO_URL holds a URL with a password: secrets belong in a Secret',
  );

  const shared = checkKubernetes(
    brokenManifests(
      ...withPatch(
        'billing',
        envPatch('billing', '- name: MONGO_URL', '  valueFrom:', '    secretKeyRef:', '      name: haven-mongo-quote'),
      ),
    ),
  );
  expect(shared.ok).toBe(false);
  expect(shared.output).toMatch(
    /production: Secret haven-mongo-quote-\w+ holds the database URL of billing and quote: each app has its own/,
  );
}, 180_000);

it("fails when an app's database URL has no user name and password, and passes when it has", () => {
  const withUrl = (url: string): string =>
    brokenManifests('overlays/dev/kustomization.yaml', (text) =>
      text.replace(
        '  - name: haven-mongo-quote\n    envs:\n      - secrets/mongo-quote.env\n',
        `  - name: haven-mongo-quote\n    literals:\n      - MONGO_URL=${url}\n`,
      ),
    );
  const anonymous = checkKubernetes(withUrl('mongodb://mongodb:27017/haven_quote'));
  expect(anonymous.ok).toBe(false);
  expect(anonymous.output).toMatch(
    /dev: Deployment\/quote container server: MONGO_URL in Secret haven-mongo-quote-\w+ has no user name and password/,
  );

  const signedIn = checkKubernetes(withUrl('mongodb://haven_quote:not-a-real-secret@mongodb:27017/haven_quote'));
  expect(signedIn.output).toContain('every overlay passes');
  expect(signedIn.ok).toBe(true);
}, 120_000);

it('fails when a backup job runs as root, on a writable root file system, or without resources', () => {
  const result = checkKubernetes(
    brokenManifests('base/backups.yaml', (text) =>
      text
        .replace('            runAsNonRoot: true\n', '            runAsNonRoot: false\n')
        .replace('                readOnlyRootFilesystem: true\n', '                readOnlyRootFilesystem: false\n')
        .replace(
          / {14}resources:\n {16}requests:\n {18}cpu: 100m\n {18}memory: 128Mi\n/,
          '              resources:\n                requests:\n',
        ),
    ),
  );
  expect(result.ok).toBe(false);
  expect(result.output).toContain('CronJob/backup-data container backup: must run as non-root (runAsNonRoot: true)');
  expect(result.output).toContain('CronJob/backup-data container backup: the root file system must be read-only');
  expect(result.output).toContain(
    'CronJob/backup-keys container backup: cpu and memory requests and limits are required',
  );
  expect(result.output).not.toContain('CronJob/backup-keys container backup: must run as non-root');
}, 60_000);
