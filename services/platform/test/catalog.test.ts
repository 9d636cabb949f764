import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { producerServices } from '@haven/proto';
import { gatewayEntry, serviceCatalog, serviceUrlVariable } from '../src/catalog';

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
});
