import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { HEALTH_SUBJECT_BY_SERVICE, SERVICE_NAMES, ServiceName } from '@hotel/contracts';
import { DomainError, ServiceClient } from '@hotel/platform';
import { GatewayEnv } from '../gateway.env';
import { GATEWAY_ENV, SERVICE_CLIENT } from '../gateway.tokens';
import { ReadinessView, ServiceStatus } from '../http/reply-views';

/**
 * The platform's readiness, kept up to date in the background: every
 * READY_CHECK_INTERVAL_MS the gateway asks each service's health over NATS, and
 * `GET /health/ready` answers from the last round. A flood of probes costs no database or
 * bus round trip, so it cannot make readiness flap; a round that has not come back in
 * three intervals (the gateway cannot reach the bus) counts as not ready.
 */
@Injectable()
export class ReadinessMonitor implements OnApplicationBootstrap, OnModuleDestroy {
  private latest?: { entries: [ServiceName, ServiceStatus][]; at: number };
  private round?: Promise<void>;
  private timer?: NodeJS.Timeout;
  /** Set when the gateway begins to close: not ready from then on, whatever the services say. */
  private draining = false;

  constructor(
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    @Inject(GATEWAY_ENV) private readonly env: GatewayEnv,
  ) {}

  /** The first round before the gateway listens: its first readiness answer is a real one. */
  async onApplicationBootstrap(): Promise<void> {
    await this.check();
    this.timer = setInterval(() => void this.check(), this.env.READY_CHECK_INTERVAL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.round;
  }

  /** The gateway closes: readiness answers 503 from now on, so that no new request is sent here. */
  drain(): void {
    this.draining = true;
  }

  /** The readiness of the last round; a DomainError SERVICE_UNAVAILABLE (503, Retry-After) naming what is down. */
  readiness(): ReadinessView {
    if (this.draining) throw new DomainError('SERVICE_UNAVAILABLE', 'not ready: this gateway is shutting down', undefined, 5);
    const latest = this.latest;
    const problems: string[] = [];
    if (!this.services.isConnected()) problems.push('nats');
    if (!latest) problems.push('the first readiness check (still running)');
    else if (Date.now() - latest.at > 3 * this.env.READY_CHECK_INTERVAL_MS + this.env.READY_TIMEOUT_MS) problems.push('the readiness check (no answer lately)');
    for (const [name, status] of latest?.entries ?? []) {
      if (status.status === 'down') problems.push(`${name} (not answering)`);
      else if (status.database === 'down') problems.push(`${name} database`);
    }
    if (problems.length > 0) throw new DomainError('SERVICE_UNAVAILABLE', `not ready: ${problems.join(', ')} down`, undefined, 5);
    return { status: 'ready', nats: 'up', services: Object.fromEntries(latest!.entries) as ReadinessView['services'] };
  }

  /** One round, unless one is under way. */
  check(): Promise<void> {
    this.round ??= this.ask().finally(() => (this.round = undefined));
    return this.round;
  }

  private async ask(): Promise<void> {
    const entries = await Promise.all(
      SERVICE_NAMES.map(async (name): Promise<[ServiceName, ServiceStatus]> => {
        try {
          const reply = await this.services.send(HEALTH_SUBJECT_BY_SERVICE[name], {}, { timeoutMs: this.env.READY_TIMEOUT_MS });
          // A vendor's open circuit is shown, never a reason to be unready: the platform still sells the others' rooms.
          return [name, { status: 'up', database: reply.database, ...(reply.vendors && { vendors: reply.vendors }) }];
        } catch (error) {
          // A DomainError says which service failed and how; anything else may name hosts.
          return [name, { status: 'down', reason: error instanceof DomainError ? error.message : 'not answering' }];
        }
      }),
    );
    this.latest = { entries, at: Date.now() };
  }
}
