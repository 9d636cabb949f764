import { z } from 'zod';

/**
 * Variables no service or gateway schema parses: OpenTelemetry's own names, which the tracing module
 * (services/platform/src/tracing.ts) and the exporters read from the environment themselves, and those of the
 * tools, tests, web dev server and compose files. They are described here, in the same form as the schemas, so
 * the configuration reference has one source; the code that reads each one is named beside it.
 */

/** Read by services/platform/src/tracing.ts and OpenTelemetry's exporters, in every service and the gateway. */
export const tracingVariables = {
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .url()
    .optional()
    .describe(
      'an OpenTelemetry collector (OTLP over HTTP): traces are sent there; unset: none recorded (docs/operations.md, "Traces")',
    ),
  OTEL_TRACES_EXPORTER: z
    .string()
    .optional()
    .describe(
      "`zipkin`: traces are sent in Zipkin's format to `OTEL_EXPORTER_ZIPKIN_ENDPOINT` (`make dev` sets both for its viewer)",
    ),
  OTEL_EXPORTER_ZIPKIN_ENDPOINT: z.url().optional().describe('where Zipkin-format traces go'),
  OTEL_SERVICE_NAME: z.string().optional().meta({
    description: "the process's name in its traces",
    unset: "the service's name (`gateway` for the gateway)",
  }),
};

/** Read by the make targets, tools/, the test harness, the web dev server (web/vite.config.ts) and compose. */
export const toolVariables = {
  HAVEN_CACHE_DIR: z.string().optional().meta({
    description: "where the database's and Kafka's jars are fetched (reused across runs)",
    unset: '`$XDG_CACHE_HOME/haven` or `~/.cache/haven`',
  }),
  HAVEN_TEST_INFRA: z.enum(['local', 'running']).optional().meta({
    description:
      '`local` forces local processes even where a Docker engine answers; `running` uses the servers of `make test-servers`',
    unset: 'automatic',
  }),
  TEST_WORKERS: z.coerce
    .number()
    .int()
    .positive()
    .default(3)
    .describe(
      'jest workers of `make test`, `make test-repeat` and `make test-integration`, each with its own database, Kafka and maildev; 1 runs in band',
    ),
  HAVEN_TEST_BUDGET_S: z.coerce
    .number()
    .int()
    .positive()
    .default(900)
    .describe('`make test` prints a warning when its wall time exceeds it'),
  HAVEN_CONTAINER_IMAGES: z
    .enum(['local', 'public'])
    .default('local')
    .describe(
      '`public`: testcontainers and the compose smoke use `mongo:7`, `apache/kafka`, `maildev/maildev` from a registry',
    ),
  HAVEN_DOCKER_HOST: z
    .string()
    .optional()
    .describe(
      'the container stage uses this engine instead of starting its own (`unix:///run/haven-docker/docker.sock`)',
    ),
  HAVEN_DOCKER_DATA_ROOT: z
    .string()
    .default('/var/lib/haven-docker')
    .describe('data root (image cache) of the engine the container stage starts'),
  HAVEN_DOCKER_RUN_DIR: z
    .string()
    .default('/run/haven-docker')
    .describe('socket, pid file and exec root of that engine'),
  HAVEN_GATEWAY_PORT: z.coerce
    .number()
    .int()
    .default(4000)
    .describe('host port (on 127.0.0.1) compose publishes the gateway on'),
  HAVEN_MAIL_PORT: z.coerce
    .number()
    .int()
    .default(1080)
    .describe('host port (on 127.0.0.1) compose publishes the maildev inbox on'),
  HAVEN_ADMIN_EMAIL: z
    .string()
    .optional()
    .meta({ description: 'compose passes it to the gateway as `ADMIN_EMAIL`', unset: 'empty' }),
  HAVEN_KEEP_TEST_STATE: z
    .enum(['1'])
    .optional()
    .describe('`1` keeps `.haven/test-<pid>` (data and logs of a test run, one `world-<n>` folder per worker)'),
  HAVEN_TEST_LOG_LEVEL: z
    .string()
    .default('silent')
    .describe('log level of the services started inside integration tests'),
  HAVEN_CHROMIUM: z.string().default('/usr/bin/chromium').describe('the browser the browser tests drive'),
  HAVEN_GATEWAY_URL: z
    .url()
    .default('http://127.0.0.1:4000')
    .describe("where Vite's dev server proxies `/graphql` and `/api`"),
  BENCH_DURATION: z.coerce.number().int().positive().default(10).describe('seconds per target of `make bench`'),
  BENCH_CONNECTIONS: z.coerce.number().int().positive().default(10).describe('concurrent connections of `make bench`'),
  BENCH_RELAY: z.enum(['0', '1']).default('1').describe("`0` skips the outbox relay's part of `make bench`"),
  BENCH_ONLY: z
    .string()
    .optional()
    .describe(
      'one part of `make bench` alone: `journal` (check-ins and history reads), `web`, `access`, `limits`, `sealing` or `admin`',
    ),
};
