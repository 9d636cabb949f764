import type { ProducerService } from '@haven/proto';

/**
 * The one list of Haven's processes: each subgraph service (name, folder, development port) and the
 * gateway. The gateway, `make dev`, the test harness, the benchmarks and the deploy-file tests read it;
 * compose and Kubernetes are checked against it. Adding a service starts here (docs/adding-a-service.md).
 */
export interface ServiceEntry {
  name: ServiceName;
  /** Folder from the repository root; the service's entry point is `<dir>/src/main.ts`. */
  dir: string;
  /** Port in development (`make dev`) and in the deploy files. */
  port: number;
}

/** A subgraph service's name: also its event producer name (haven.<name>.events). */
export type ServiceName = ProducerService;

export const serviceCatalog: readonly ServiceEntry[] = [
  { name: 'user', dir: 'services/user', port: 4001 },
  { name: 'quote', dir: 'services/quote', port: 4002 },
  { name: 'billing', dir: 'services/billing', port: 4003 },
  { name: 'notification', dir: 'services/notification', port: 4004 },
  { name: 'compliance', dir: 'services/compliance', port: 4005 },
];

export const gatewayEntry = { name: 'gateway', dir: 'gateway', port: 4000 } as const;

export const serviceNames: readonly ServiceName[] = serviceCatalog.map((entry) => entry.name);

export function catalogEntry(name: ServiceName): ServiceEntry {
  const entry = serviceCatalog.find((candidate) => candidate.name === name);
  if (!entry) throw new Error(`${name} is not in the service catalog (services/platform/src/catalog.ts)`);
  return entry;
}

/** The gateway's variable for a subgraph's URL: USER_SERVICE_URL, QUOTE_SERVICE_URL, … */
export type ServiceUrlVariable = `${Uppercase<ServiceName>}_SERVICE_URL`;

export function serviceUrlVariable(name: ServiceName): ServiceUrlVariable {
  return `${name.toUpperCase() as Uppercase<ServiceName>}_SERVICE_URL`;
}

/** Where a subgraph answers GraphQL on this machine. */
export function localGraphqlUrl(port: number): string {
  return `http://127.0.0.1:${port}/graphql`;
}
