import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { producerServices } from '@haven/proto';
import { callersOf, gatewayEntry, serviceCatalog, serviceUrlVariable, type ServiceName } from '../src/catalog';

const repoRoot = join(__dirname, '..', '..', '..');

describe('the service catalog', () => {
  it('lists exactly the event producers proto knows, in the same order', () => {
    expect(serviceCatalog.map((entry) => entry.name)).toEqual([...producerServices]);
  });

  it('names every folder under services/ that has a main.ts, and each has its schema', () => {
    const servicesOnDisk = readdirSync(join(repoRoot, 'services')).filter((dir) =>
      existsSync(join(repoRoot, 'services', dir, 'src', 'main.ts')),
    );
    expect(serviceCatalog.map((entry) => entry.dir).sort()).toEqual(
      servicesOnDisk.map((dir) => `services/${dir}`).sort(),
    );
    for (const { dir } of serviceCatalog) expect(existsSync(join(repoRoot, dir, 'src', 'schema.graphql'))).toBe(true);
  });

  it('gives every process its own port', () => {
    const ports = [...serviceCatalog, gatewayEntry].map((entry) => entry.port);
    expect(new Set(ports).size).toBe(ports.length);
  });

  it('names the gateway variable of each subgraph URL after the service', () => {
    expect(serviceUrlVariable('notification')).toBe('NOTIFICATION_SERVICE_URL');
  });

  it('declares every subgraph a service asks (NetworkPolicies admit exactly those callers)', () => {
    // The ways a service reaches another subgraph: its URL variable, or the platform helper that uses it.
    const askedThrough: Partial<Record<ServiceName, RegExp>> = {
      user: /USER_SERVICE_URL|roleFromUserService\(/,
      billing: /BILLING_SERVICE_URL|entitlements\.source\(/,
    };
    for (const { name, dir, asks } of serviceCatalog) {
      const sources = readdirSync(join(repoRoot, dir, 'src'), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
        .map((file) => readFileSync(join(repoRoot, dir, 'src', file), 'utf8'))
        .join('\n');
      const found = Object.entries(askedThrough)
        .filter(([target, pattern]) => target !== name && pattern.test(sources))
        .map(([target]) => target);
      expect({ name, asks: [...asks].sort() }).toEqual({ name, asks: found.sort() });
    }
    expect(callersOf('user')).toEqual(['quote', 'billing', 'notification', 'compliance']);
  });

  it('declares each plain HTTP route once, as a plain path the gateway can match byte for byte', () => {
    for (const { name, httpRoutes } of serviceCatalog) {
      expect({ name, unique: new Set(httpRoutes).size }).toEqual({ name, unique: httpRoutes.length });
      for (const route of httpRoutes) {
        // No dot segments, encodings, doubled slashes, backslashes or query: nothing a URL parser would rewrite.
        expect(route).toMatch(/^(GET|POST) (\/[a-z0-9][a-z0-9-]*)+$/);
      }
    }
  });
});
