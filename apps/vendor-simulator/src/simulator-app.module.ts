import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { openServiceDataSource, serviceDataSourceOptions } from '@hotel/platform';
import { FaultsController } from './admin/faults.controller';
import { AvailabilityController } from './availability/availability.controller';
import { SearchAvailabilityHandler } from './availability/search-availability.handler';
import { AllotmentEntity } from './bookings/allotment.entity';
import { BookingRoomEntity } from './bookings/booking-room.entity';
import { BookingEntity } from './bookings/booking.entity';
import { BookingsController } from './bookings/bookings.controller';
import { BookingsRepository } from './bookings/bookings.repository';
import { CancelBookingHandler } from './bookings/cancel-booking/cancel-booking.handler';
import { CreateBookingHandler } from './bookings/create-booking/create-booking.handler';
import { FindBookingsHandler } from './bookings/find-bookings/find-bookings.handler';
import { CheckRateController } from './checkrate/check-rate.controller';
import { CheckRateHandler } from './checkrate/check-rate.handler';
import { SIMULATOR_CLOCK, type SimulatorClock } from './clock';
import { ContentController } from './content/content.controller';
import type { FaultBoard } from './faults/fault-knobs';
import { HealthController } from './health/health.controller';
import { SandboxDesk } from './sandbox/sandbox-desk';
import { SandboxDeskController } from './sandbox/sandbox-desk.controller';
import { AuditDataInterceptor, VendorExceptionFilter, vendorValidationPipe } from './http/vendor-answers';
import { CreateVendorSimulator1765100000000 } from './migrations/1765100000000-create-vendor-simulator';
import { SimulatorEnv, credentialsOf } from './simulator.env';
import { FAULT_BOARD, VENDOR_BEHAVIOUR, VENDOR_CREDENTIALS, type VendorBehaviour } from './vendors/vendor-tokens';

/** The schema the simulated vendors own. */
export const SIMULATOR_SCHEMA = 'vendor_simulator';

/** One per table of the schema. */
export const SIMULATOR_ENTITIES = [AllotmentEntity, BookingEntity, BookingRoomEntity];

/** In order. */
export const SIMULATOR_MIGRATIONS = [CreateVendorSimulator1765100000000];

@Module({})
export class SimulatorAppModule {
  static register(env: SimulatorEnv, clock: SimulatorClock, faults: FaultBoard): DynamicModule {
    const behaviour: VendorBehaviour = { pendingSeconds: env.SUPPLIER_PENDING_S };
    return {
      module: SimulatorAppModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () =>
            serviceDataSourceOptions({
              schema: SIMULATOR_SCHEMA,
              url: env.DATABASE_URL,
              poolSize: env.DB_POOL_SIZE,
              entities: SIMULATOR_ENTITIES,
              migrations: SIMULATOR_MIGRATIONS,
            }),
          dataSourceFactory: async (options) => openServiceDataSource(new DataSource(options!), SIMULATOR_SCHEMA),
        }),
      ],
      // The desk's static routes win over the vendors' `:vendor` ones.
      controllers: [HealthController, FaultsController, ContentController, SandboxDeskController, AvailabilityController, CheckRateController, BookingsController],
      providers: [
        { provide: SIMULATOR_CLOCK, useValue: clock },
        { provide: FAULT_BOARD, useValue: faults },
        { provide: VENDOR_CREDENTIALS, useValue: credentialsOf(env) },
        { provide: VENDOR_BEHAVIOUR, useValue: behaviour },
        { provide: APP_FILTER, useClass: VendorExceptionFilter },
        { provide: APP_INTERCEPTOR, useClass: AuditDataInterceptor },
        { provide: APP_PIPE, useFactory: vendorValidationPipe },
        BookingsRepository,
        SandboxDesk,
        SearchAvailabilityHandler,
        CheckRateHandler,
        CreateBookingHandler,
        FindBookingsHandler,
        CancelBookingHandler,
      ],
    };
  }
}
