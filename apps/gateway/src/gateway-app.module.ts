import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { ServiceClient, createValidationPipe } from '@hotel/platform';
import { AuthGuard } from './auth/auth.guard';
import { AccountingController } from './backend/accounting.controller';
import { BackendBookingsController } from './backend/bookings.controller';
import { UsersController } from './backend/users.controller';
import { IdentityController } from './booking/identity.controller';
import { BookController } from './booking/book.controller';
import { VoucherController } from './booking/voucher.controller';
import { PrebookController } from './booking/prebook.controller';
import { PromoController } from './booking/promo.controller';
import { SearchController } from './booking/search.controller';
import { GatewayEnv } from './gateway.env';
import { GATEWAY_ENV, SERVICE_CLIENT } from './gateway.tokens';
import { HealthController } from './health/health.controller';
import { HttpErrorFilter } from './http/http-error.filter';

@Module({})
export class GatewayAppModule {
  static register(env: GatewayEnv, services: ServiceClient): DynamicModule {
    return {
      module: GatewayAppModule,
      controllers: [HealthController, IdentityController, SearchController, PrebookController, PromoController, BookController, VoucherController, UsersController, AccountingController, BackendBookingsController],
      providers: [
        { provide: GATEWAY_ENV, useValue: env },
        { provide: SERVICE_CLIENT, useValue: services },
        { provide: APP_FILTER, useClass: HttpErrorFilter },
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_PIPE, useFactory: createValidationPipe },
      ],
    };
  }
}
