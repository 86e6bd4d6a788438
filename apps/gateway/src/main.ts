import 'reflect-metadata';
import { ConfigError, JsonLogger, loadEnv } from '@hotel/platform';
import { GatewayEnv } from './gateway.env';
import { startGateway } from './start-gateway';

async function main() {
  let env: GatewayEnv;
  try {
    env = loadEnv(GatewayEnv);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`gateway: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = new JsonLogger('gateway', env.LOG_LEVEL);
  const gateway = await startGateway(env);
  logger.log({ msg: 'gateway listening', url: gateway.url, plainUrl: gateway.plainUrl });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log({ msg: `${signal} received, closing` });
    gateway.close().then(
      () => process.exit(0),
      (error) => {
        logger.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error) => {
  new JsonLogger('gateway').fatal(error instanceof Error ? error : String(error));
  process.exit(1);
});
