import 'reflect-metadata';
import { JsonLogger, closeOnSignal, exitOnStartFailure, loadEnvOrExit, logLongGarbageCollections } from '@hotel/platform';
import { GatewayEnv } from './gateway.env';
import { startGateway } from './start-gateway';

const env = loadEnvOrExit('gateway', GatewayEnv);
startGateway(env).then((gateway) => {
  const logger = new JsonLogger('gateway', env.LOG_LEVEL);
  logger.log({ msg: 'gateway listening', url: gateway.url, plainUrl: gateway.plainUrl, metricsUrl: gateway.metricsUrl });
  logLongGarbageCollections(logger);
  closeOnSignal(logger, () => gateway.close());
}, exitOnStartFailure('gateway'));
