import 'reflect-metadata';
import { JsonLogger, closeOnSignal, cpuProfileOnSignal, exitOnStartFailure, loadEnvOrExit, logLongGarbageCollections, tracingFromEnv } from '@hotel/platform';
import { GatewayEnv } from './gateway.env';
import { startGateway } from './start-gateway';

const env = loadEnvOrExit('gateway', GatewayEnv);
tracingFromEnv('gateway', env).then(() => startGateway(env)).then((gateway) => {
  const logger = new JsonLogger('gateway', env.LOG_LEVEL);
  logger.log({ msg: 'gateway listening', url: gateway.url, plainUrl: gateway.plainUrl, metricsUrl: gateway.metricsUrl, traces: env.OTEL_EXPORTER_OTLP_ENDPOINT });
  logLongGarbageCollections(logger);
  cpuProfileOnSignal('gateway', logger, env.CPU_PROFILE_DIR);
  closeOnSignal(logger, () => gateway.close());
}, exitOnStartFailure('gateway'));
