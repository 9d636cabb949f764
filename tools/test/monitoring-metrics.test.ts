/**
 * The dashboard (deploy/monitoring/haven-dashboard.json) and the alert rules (haven-alerts.yaml) read only metrics
 * the code registers: a renamed or removed metric fails here, not as an empty panel or an alert that never fires.
 * The registries are built by the same functions the services and the gateway call; nothing is scraped or read.
 * And Prometheus's scrape configuration in Kubernetes scrapes every app on the port its Deployment serves /metrics on.
 */
import {
  consumerLagMetrics,
  consumerMetrics,
  createKafka,
  createLogger,
  createMetricsRegistry,
  httpMetrics,
  rateLimitRefusalCounter,
  registerOutboxMetrics,
} from '@haven/platform';
import mongoose from 'mongoose';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Histogram, type Registry } from 'prom-client';
import { parse, parseAllDocuments } from 'yaml';
import { serviceCatalog } from '../../services/platform/src/catalog';
import { renderKubernetes } from '../containers/k8s-check';
import { schedulerCounts } from '../../services/billing/src/jobs/scheduler';
import { mailMetrics } from '../../services/notification/src/providers/mailer';

const monitoring = resolve(__dirname, '../../deploy/monitoring');
const log = createLogger('monitoring-metrics-test', 'silent');
/** Series Prometheus makes itself for every target: not a service's. */
const prometheusOwn = new Set(['up']);

const promqlKeywords = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'offset',
  'bool',
  'inf',
  'nan',
]);

/**
 * The metric names a PromQL expression reads: what is left once strings, label matchers, ranges, grouping
 * clauses, Grafana's variables and function calls are taken out.
 */
function metricNamesIn(expression: string): string[] {
  const bare = expression
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\$\{[^}]*\}|\$\w+/g, ' ');
  const names = new Set<string>();
  for (const match of bare.matchAll(/[A-Za-z_:][A-Za-z0-9_:]*/g)) {
    const rest = bare.slice(match.index + match[0].length);
    if (/^\s*\(/.test(rest) || promqlKeywords.has(match[0].toLowerCase())) continue;
    // A number's exponent (1e3) or a duration's unit is not a name.
    if (/[0-9.]$/.test(bare.slice(0, match.index))) continue;
    names.add(match[0]);
  }
  return [...names];
}

/** Each name a registry's metrics show up under in Prometheus (a histogram's _bucket, _sum and _count). */
function exportedNames(registries: Registry[]): Set<string> {
  const names = new Set<string>();
  for (const registry of registries) {
    for (const metric of registry.getMetricsAsArray()) {
      const { name } = metric as unknown as { name: string };
      names.add(name);
      if (metric instanceof Histogram) for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
    }
  }
  return names;
}

let registered: Set<string>;
let closeLag: () => Promise<void>;
const unconnected = mongoose.createConnection();

beforeAll(() => {
  // A service as service.ts builds its registry (the relay's figures and the backlog's collection are only read
  // at a scrape), with notification's and billing's own counts; the gateway as app.ts builds its own.
  const service = createMetricsRegistry('notification');
  httpMetrics(service);
  const relay = {
    metrics: { published: 0, parked: 0, documentFailures: 0, failedPasses: 0, sweeps: 0, isLeader: false },
  };
  registerOutboxMetrics(service, relay, unconnected.collection('outbox_pending'), log);
  consumerMetrics(service, []);
  closeLag = consumerLagMetrics(service, createKafka('monitoring-metrics-test', ['127.0.0.1:9'], log), [], log).close;
  rateLimitRefusalCounter(service);
  mailMetrics(service);
  const billing = createMetricsRegistry('billing');
  schedulerCounts(billing);
  const gateway = createMetricsRegistry('gateway');
  httpMetrics(gateway);
  rateLimitRefusalCounter(gateway);
  registered = exportedNames([service, billing, gateway]);
});

afterAll(async () => {
  await closeLag();
  await unconnected.close();
});

describe('metricNamesIn', () => {
  it('finds the metrics and leaves out functions, labels, ranges, grouping and variables', () => {
    expect(
      metricNamesIn(
        'histogram_quantile(0.95, sum by (service, le) (rate(haven_x_bucket{route!="/metrics", a=~"b.*"}[$__rate_interval])))' +
          ' / on (service) group_left (kind) haven_y_total offset 5m > 1e3 and up{job=~"haven-.*"}',
      ).sort(),
    ).toEqual(['haven_x_bucket', 'haven_y_total', 'up']);
  });
});

describe('the dashboard', () => {
  const dashboard = JSON.parse(readFileSync(resolve(monitoring, 'haven-dashboard.json'), 'utf8')) as {
    panels: Array<{ title: string; targets?: Array<{ expr: string }> }>;
    templating: { list: Array<{ name: string; query?: unknown }> };
  };
  const expressions = [
    ...dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => [panel.title, target.expr] as const)),
    ...dashboard.templating.list.flatMap((variable) => {
      const query = (variable.query as { query?: string } | undefined)?.query;
      // label_values(metric, label): the metric is its first argument.
      const metric = query ? /label_values\(\s*([A-Za-z_:][\w:]*)/.exec(query)?.[1] : undefined;
      return metric ? [[`variable ${variable.name}`, metric] as const] : [];
    }),
  ];

  it('has a panel for each thing an operator watches', () => {
    const read = new Set(expressions.flatMap(([, expression]) => metricNamesIn(expression)));
    for (const metric of [
      'haven_http_request_duration_seconds_count',
      'haven_http_request_duration_seconds_bucket',
      'haven_outbox_backlog_entities',
      'haven_consumer_lag_messages',
      'haven_emails_sent_total',
      'haven_emails_failed_total',
      'haven_email_delivery_latency_seconds_bucket',
      'haven_rate_limit_refusals_total',
      'haven_billing_subscriptions_moved_on_total',
      'haven_billing_subscriptions_set_aside_total',
    ]) {
      expect(read).toContain(metric);
    }
  });

  it('reads only metrics the services and the gateway register', () => {
    const unknown = expressions.flatMap(([where, expression]) =>
      metricNamesIn(expression)
        .filter((name) => !registered.has(name) && !prometheusOwn.has(name))
        .map((name) => `${where}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });
});

describe('the alert rules', () => {
  it('read only metrics the services and the gateway register', () => {
    const rules = parse(readFileSync(resolve(monitoring, 'haven-alerts.yaml'), 'utf8')) as {
      groups: Array<{ rules: Array<{ alert: string; expr: string }> }>;
    };
    const all = rules.groups.flatMap((group) => group.rules);
    expect(all.length).toBeGreaterThan(0);
    const unknown = all.flatMap((rule) =>
      metricNamesIn(rule.expr)
        .filter((name) => !registered.has(name) && !prometheusOwn.has(name))
        .map((name) => `${rule.alert}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });
});

describe('the scrape configuration', () => {
  type ScrapeJob = {
    job_name: string;
    kubernetes_sd_configs: Array<{ selectors: Array<{ label: string }> }>;
    relabel_configs: Array<{ source_labels?: string[]; regex?: string; action?: string }>;
  };
  type Manifest = {
    kind: string;
    metadata: { name: string };
    data?: Record<string, string>;
    spec?: {
      template: {
        spec: {
          containers: Array<{
            ports?: Array<{ name: string; containerPort: number }>;
            env?: Array<{ name: string; value?: string }>;
          }>;
        };
      };
    };
  };
  // Kubernetes as kustomize builds it (the dev overlay; both share the base's scrape configuration).
  let manifests: Manifest[] = [];
  beforeAll(() => {
    manifests = parseAllDocuments(renderKubernetes().dev ?? '')
      .map((doc) => doc.toJS() as Manifest)
      .filter(Boolean);
  }, 15 * 60_000);
  const checked = parse(readFileSync(resolve(monitoring, 'prometheus.yml'), 'utf8')) as { scrape_configs: ScrapeJob[] };

  it('in Kubernetes is the one promtool checks', () => {
    const configMap = manifests.find((doc) => doc.kind === 'ConfigMap' && doc.metadata.name === 'prometheus-scrape');
    expect(parse(configMap?.data?.['prometheus.yml'] ?? '')).toEqual(checked);
  });

  it('scrapes every app, as haven-<app>, on the port its Deployment serves /metrics on', () => {
    const apps = ['gateway', ...serviceCatalog.map((entry) => entry.name)];
    expect(checked.scrape_configs.map((job) => job.job_name).sort()).toEqual(apps.map((app) => `haven-${app}`).sort());
    for (const app of apps) {
      const job = checked.scrape_configs.find((each) => each.job_name === `haven-${app}`)!;
      expect(job.kubernetes_sd_configs.flatMap((sd) => sd.selectors.map((selector) => selector.label))).toEqual([
        `app=${app}`,
      ]);
      const portName = job.relabel_configs.find(
        (rule) => rule.action === 'keep' && rule.source_labels?.includes('__meta_kubernetes_pod_container_port_name'),
      )?.regex;
      const deployment = manifests.find((doc) => doc.kind === 'Deployment' && doc.metadata.name === app);
      const [container] = deployment?.spec?.template.spec.containers ?? [];
      const port = container?.ports?.find((each) => each.name === portName);
      expect({ app, port: port?.name }).toEqual({ app, port: portName });
      // Where /metrics is: the subgraph's own port (PORT), the gateway's METRICS_PORT, never its public one.
      const variable = app === 'gateway' ? 'METRICS_PORT' : 'PORT';
      expect(container?.env?.find((each) => each.name === variable)?.value).toBe(String(port?.containerPort));
    }
  });
});
