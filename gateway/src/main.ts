import { startGateway } from './app';
import { loadGatewayConfig } from './config';

export { startGateway, loadGatewayConfig };

if (require.main === module) {
  startGateway(loadGatewayConfig()).then(
    (gateway) => {
      const shutdown = () => {
        gateway.stop().then(
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
