import { DynamicModule, Module } from '@nestjs/common';
import { ServiceClient } from '@hotel/platform';
import { GatewayEnv } from './gateway.env';
import { GATEWAY_ENV, SERVICE_CLIENT } from './gateway.tokens';

/**
 * What every feature module of the gateway injects: its validated env
 * (GATEWAY_ENV) and the bus client (SERVICE_CLIENT). Global, so a feature module
 * declares its controllers only; both values are built once, by startGateway.
 */
@Module({})
export class GatewayCoreModule {
  static forRoot(env: GatewayEnv, services: ServiceClient): DynamicModule {
    return {
      module: GatewayCoreModule,
      global: true,
      providers: [
        { provide: GATEWAY_ENV, useValue: env },
        { provide: SERVICE_CLIENT, useValue: services },
      ],
      exports: [GATEWAY_ENV, SERVICE_CLIENT],
    };
  }
}
