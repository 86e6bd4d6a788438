import { DynamicModule, Module, Type } from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { ServiceClient, createValidationPipe } from '@hotel/platform';
import { AuthGuard } from './auth/auth.guard';
import { BackendApiModule } from './backend/backend-api.module';
import { BookingApiModule } from './booking/booking-api.module';
import { DocsModule } from './docs/docs.module';
import { FinanceConsoleModule } from './finance-console/finance-console.module';
import { GatewayCoreModule } from './gateway-core.module';
import { GatewayEnv } from './gateway.env';
import { HealthModule } from './health/health.module';
import { HttpErrorFilter } from './http/http-error.filter';
import { V2Module } from './v2/v2.module';

/** The gateway's feature modules: each declares its own controllers. */
export const GATEWAY_FEATURE_MODULES: readonly Type[] = [HealthModule, BookingApiModule, V2Module, BackendApiModule, DocsModule, FinanceConsoleModule];

/** Every controller of the gateway, read from the feature modules' own declarations (so it cannot drift from them). */
export function gatewayControllers(): Type[] {
  return GATEWAY_FEATURE_MODULES.flatMap((feature) => (Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, feature) as Type[] | undefined) ?? []);
}

/**
 * The root module: the core values (env, bus client) for every feature module,
 * the feature modules, and what applies to every route whatever its module (the
 * error filter, the authentication guard, the validation pipe).
 */
@Module({})
export class GatewayAppModule {
  static register(env: GatewayEnv, services: ServiceClient): DynamicModule {
    return {
      module: GatewayAppModule,
      imports: [GatewayCoreModule.forRoot(env, services), ...GATEWAY_FEATURE_MODULES],
      providers: [
        { provide: APP_FILTER, useClass: HttpErrorFilter },
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
    };
  }
}
