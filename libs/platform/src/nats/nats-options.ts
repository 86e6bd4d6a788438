import { PlatformNatsServer } from './platform-nats-server';

/** Connection options every NATS connection of the platform uses. */
export function natsConnectionOptions(natsUrl: string) {
  return {
    servers: natsUrl.split(','),
    // Keep trying when the broker is not up yet or goes away; never give up.
    waitOnFirstConnect: true,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    // nats.js otherwise builds an Error (with a stack) for every request up front,
    // a measurable share of the gateway's CPU.
    noAsyncTraces: true,
  };
}

/**
 * A service's NATS server: subscribed in the queue group named after the service,
 * so each message reaches exactly one replica (without it every replica would
 * handle every request, e.g. a double debit).
 */
export function natsServer(service: string, natsUrl: string, gracePeriodMs: number): PlatformNatsServer {
  return new PlatformNatsServer(
    {
      ...natsConnectionOptions(natsUrl),
      name: service,
      queue: service,
      gracefulShutdown: true,
      gracePeriod: gracePeriodMs,
    },
    service,
  );
}
