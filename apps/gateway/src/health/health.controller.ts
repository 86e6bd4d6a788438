import { Controller, Get, Inject } from '@nestjs/common';
import { HEALTH_SUBJECT_BY_SERVICE, SERVICE_NAMES, ServiceName } from '@hotel/contracts';
import { DomainError, ServiceClient } from '@hotel/platform';
import { GatewayEnv } from '../gateway.env';
import { GATEWAY_ENV, SERVICE_CLIENT } from '../gateway.tokens';
import { LivenessView, ReadinessView, ServiceStatus } from '../http/reply-views';

@Controller('health')
export class HealthController {
  constructor(
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    @Inject(GATEWAY_ENV) private readonly env: GatewayEnv,
  ) {}

  /** Liveness: the gateway process answers. No credential needed. */
  @Get()
  live(): LivenessView {
    return { status: 'ok' };
  }

  /** Readiness: every service answers over NATS and reaches its database. */
  @Get('ready')
  async ready(): Promise<ReadinessView> {
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
    const problems = entries.flatMap(([name, status]) =>
      status.status === 'down' ? [`${name} (not answering)`] : status.database === 'down' ? [`${name} database`] : [],
    );
    if (!this.services.isConnected()) problems.unshift('nats');
    if (problems.length > 0) {
      throw new DomainError('SERVICE_UNAVAILABLE', `not ready: ${problems.join(', ')} down`, undefined, 5);
    }
    return { status: 'ready', nats: 'up', services: Object.fromEntries(entries) as ReadinessView['services'] };
  }
}
