import type { ProducerService } from '@haven/proto';

/**
 * The one list of Haven's processes: each subgraph service (name, folder, development port) and the
 * gateway. The gateway, `make dev`, the test harness, the benchmarks and the deploy-file tests read it;
 * compose and Kubernetes are checked against it. Adding a service starts here (docs/adding-a-service.md).
 */
export interface ServiceEntry {
  name: ProducerService;
  /** Folder from the repository root. */
  dir: string;
  /** Port in development (`make dev`) and in the deploy files. */
  port: number;
}

export const serviceCatalog: readonly ServiceEntry[] = [
  { name: 'user', dir: 'services/user', port: 4001 },
  { name: 'quote', dir: 'services/quote', port: 4002 },
  { name: 'billing', dir: 'services/billing', port: 4003 },
  { name: 'notification', dir: 'services/notification', port: 4004 },
  { name: 'compliance', dir: 'services/compliance', port: 4005 },
];

export const gatewayEntry = { name: 'gateway', dir: 'gateway', port: 4000 } as const;
