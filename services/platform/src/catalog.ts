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
  /**
   * The subgraphs this service asks directly while it works (the caller's role, a profile, an entitlement,
   * deletion's close steps), besides what the gateway routes. Kubernetes' NetworkPolicies admit exactly
   * these callers and the gateway (`make k8s-check` compares them).
   */
  asks: readonly ServiceName[];
  /**
   * The service's plain HTTP routes (webhooks, form posts, file downloads): what it mounts under /http
   * (`serviceHttpRoutes`) and all that the gateway forwards from /hooks/<service>/…, read from here by both,
   * so a route the service does not serve is never reachable and one it serves is never left out.
   */
  httpRoutes: readonly HttpRoute[];
}

/** A plain HTTP route: its method and its path below the service's /http (the gateway's /hooks/<service>). */
export type HttpRoute = `${'GET' | 'POST'} /${string}`;

/** A subgraph service's name: also its event producer name (haven.<name>.events). */
export type ServiceName = ProducerService;

const entries = [
  { name: 'user', dir: 'services/user', port: 4001, asks: [], httpRoutes: [] },
  {
    name: 'quote',
    dir: 'services/quote',
    port: 4002,
    asks: ['user', 'billing'],
    // The data export's CSV download (also the gateway's GET /api/user/export).
    httpRoutes: ['GET /export'],
  },
  { name: 'billing', dir: 'services/billing', port: 4003, asks: ['user'], httpRoutes: ['POST /stripe/webhook'] },
  {
    name: 'notification',
    dir: 'services/notification',
    port: 4004,
    asks: ['user'],
    // The one-click routes of the newsletter and of the stop links: a mail client's POST, a person's GET.
    httpRoutes: [
      'POST /newsletter/one-click',
      'GET /newsletter/one-click',
      'POST /emails/one-click',
      'GET /emails/one-click',
    ],
  },
  { name: 'compliance', dir: 'services/compliance', port: 4005, asks: ['user', 'billing'], httpRoutes: [] },
] as const satisfies readonly ServiceEntry[];

export const serviceCatalog: readonly ServiceEntry[] = entries;

/** The plain HTTP routes one service declares, as a type: its handlers must cover exactly these. */
export type HttpRouteOf<Name extends ServiceName> = Extract<
  (typeof entries)[number],
  { name: Name }
>['httpRoutes'][number];

export const gatewayEntry = { name: 'gateway', dir: 'gateway', port: 4000 } as const;

export const serviceNames: readonly ServiceName[] = serviceCatalog.map((entry) => entry.name);

export function catalogEntry(name: ServiceName): ServiceEntry {
  const entry = serviceCatalog.find((candidate) => candidate.name === name);
  if (!entry) throw new Error(`${name} is not in the service catalog (services/platform/src/catalog.ts)`);
  return entry;
}

/** Who may reach a subgraph: the services that ask it (see `asks`), by name. */
export function callersOf(name: ServiceName): ServiceName[] {
  return serviceCatalog.filter((entry) => entry.asks.includes(name)).map((entry) => entry.name);
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
