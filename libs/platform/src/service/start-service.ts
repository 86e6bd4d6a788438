import { DynamicModule, INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { NatsConnection } from 'nats';
import { DataSource } from 'typeorm';
import { ConfigError, ServiceEnv, developmentSecrets, loadEnv } from '../config/env';
import { isDatabaseUp } from '../database/service-data-source';
import { JsonLogger } from '../logging/json-logger';
import { logLongGarbageCollections } from '../logging/long-pauses';
import { cpuProfileOnSignal } from '../logging/cpu-profile';
import { BusIdentity } from '@hotel/contracts';
import { busCredentials, natsServer } from '../nats/nats-options';
import { AppMetrics } from '../metrics/app-metrics';
import { shutdownTracing, tracingFromEnv } from '../tracing/tracing';
import { APP_METRICS, SERVICE_INSTANCE } from './service-platform.module';

export interface RunningService {
  app: INestMicroservice;
  /** http://host:port of the probe and metrics listener, when HEALTH_PORT is set. */
  probeUrl?: string;
  close(): Promise<void>;
}

/**
 * Starts one replica of a service: a NATS microservice in the service's queue
 * group. With HEALTH_PORT set it also answers /health and /health/ready over
 * plain HTTP for orchestrator probes, and /metrics for Prometheus.
 */
export async function startService(name: BusIdentity, rootModule: DynamicModule, env: ServiceEnv): Promise<RunningService> {
  const logger = new JsonLogger(name, env.LOG_LEVEL);
  const server = natsServer(name, busCredentials(env, name), env.SHUTDOWN_GRACE_MS);
  const app = await NestFactory.createMicroservice(rootModule, { strategy: server, logger });
  server.instance = app.get<string>(SERVICE_INSTANCE);
  server.recordTo(app.get<AppMetrics>(APP_METRICS));
  await app.listen();
  // The subscriptions are on the broker once this round trip returns: the replica is
  // really in its queue group when startService resolves (not a moment later).
  await app.unwrap<NatsConnection>().flush();
  let probe: Server | undefined;
  if (env.HEALTH_PORT !== undefined) probe = await listenForProbes(app, env.HEALTH_PORT, env.HEALTH_HOST);
  const address = probe?.address() as AddressInfo | undefined;
  return {
    app,
    probeUrl: address && `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`,
    close: async () => {
      probe?.close();
      await app.close();
    },
  };
}

async function listenForProbes(app: INestMicroservice, port: number, host: string): Promise<Server> {
  const dataSource = app.get(DataSource);
  const metrics = app.get<AppMetrics>(APP_METRICS);
  const server = createServer(async (request, response) => {
    if (request.url === '/metrics') return metrics.respond(response);
    const ready = request.url === '/health' ? true : request.url === '/health/ready' ? await isDatabaseUp(dataSource) : null;
    response.writeHead(ready === null ? 404 : ready ? 200 : 503, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ data: { ready }, success: ready === true, message: null }));
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return server;
}

/**
 * Loads the environment or stops the process with every bad variable named. A
 * development secret (which production refuses) is allowed elsewhere, with a warning
 * naming it: everyone who has read this repository knows its value.
 */
export function loadEnvOrExit<E extends object>(app: string, EnvClass: new () => E): E {
  try {
    const env = loadEnv(EnvClass);
    const development = developmentSecrets(env);
    if (development.length > 0) {
      const level = (env as { LOG_LEVEL?: ConstructorParameters<typeof JsonLogger>[1] }).LOG_LEVEL;
      new JsonLogger(app, level).warn({ msg: 'running with development secrets, which anyone can read in the source: set your own (NODE_ENV=production refuses them)', secrets: development });
    }
    return env;
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${app}: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * Keeps a started app running until SIGTERM or SIGINT, then closes it once
 * (drain, close connections), exports the spans still waiting (tracing on) and
 * exits: 0 when the close went well.
 */
export function closeOnSignal(logger: JsonLogger, close: () => Promise<void>): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log({ msg: `${signal} received, closing` });
    logger.closing();
    close()
      .then(shutdownTracing)
      .then(
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

/** Stops the process when an app fails to start. */
export function exitOnStartFailure(app: string) {
  return (error: unknown) => {
    new JsonLogger(app).fatal(error instanceof Error ? error : String(error));
    process.exit(1);
  };
}

/**
 * The `main` of every service process: validated environment, tracing (when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set), start, and on
 * SIGTERM/SIGINT a clean stop: NATS subscriptions end and in-flight messages
 * finish within SHUTDOWN_GRACE_MS, then the connection and the pool close.
 */
export function runServiceProcess<E extends ServiceEnv>(
  name: BusIdentity,
  EnvClass: new () => E,
  moduleFor: (env: E) => DynamicModule,
): void {
  const env = loadEnvOrExit(name, EnvClass);
  tracingFromEnv(name, env).then(() => startService(name, moduleFor(env), env)).then((running) => {
    const logger = new JsonLogger(name, env.LOG_LEVEL);
    logger.log({ msg: `${name} service listening on NATS`, queue: name, traces: env.OTEL_EXPORTER_OTLP_ENDPOINT });
    logLongGarbageCollections(logger);
    cpuProfileOnSignal(name, logger, env.CPU_PROFILE_DIR);
    closeOnSignal(logger, () => running.close());
  }, exitOnStartFailure(name));
}
