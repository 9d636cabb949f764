import { startTracingFromEnv } from '@haven/platform';
import { startGateway } from './app';
import { loadGatewayConfig } from './config';

export { startGateway, loadGatewayConfig };

if (require.main === module) {
  // First, so every span of the process is recorded (only with OTEL_EXPORTER_OTLP_ENDPOINT).
  const tracing = startTracingFromEnv(process.env.OTEL_SERVICE_NAME ?? 'gateway');
  startGateway(loadGatewayConfig()).then(
    (gateway) => {
      const shutdown = () => {
        gateway
          .stop()
          .then(() => tracing.stop())
          .then(
            () => process.exit(0),
            () => process.exit(1),
          );
      };
      process.once('SIGTERM', shutdown);
      process.once('SIGINT', shutdown);
    },
    (error: unknown) => {
      process.stderr.write(`gateway failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
}
