import { DynamicModule, Module } from '@nestjs/common';
import { SUBJECTS } from '@hotel/contracts';
import { ServicePlatformModule } from '@hotel/platform';
import { BookingEnv } from './booking.env';
import { BookingFigures } from './bookings/booking-figures';
import { BookingSaga } from './bookings/booking-saga';
import { BookingEntity } from './bookings/booking.entity';
import { SandboxCardChargeEntity, SandboxCardRefundEntity } from './payments/sandbox-card.entity';
import { BookingsController } from './bookings/bookings.controller';
import { BookingsRepository } from './bookings/bookings.repository';
import { BookingsService } from './bookings/bookings.service';
import { CreateBookings1763970000000 } from './migrations/1763970000000-create-bookings';
import { IndexBookingList1763980000000 } from './migrations/1763980000000-index-booking-list';
import { SingleUsePrebooksAndCancellationSaga1764100000000 } from './migrations/1764100000000-single-use-prebooks-and-cancellation-saga';
import { FailPoints } from './bookings/fail-points';
import { ScopedIdempotencyKeys1764200000000 } from './migrations/1764200000000-scoped-idempotency-keys';
import { IndexBookingListByWorld1764400000000 } from './migrations/1764400000000-index-booking-list-by-world';
import { BookingEventsOutbox1764500000000 } from './migrations/1764500000000-booking-events-outbox';
import { StoredBookingViews1764610000000 } from './migrations/1764610000000-stored-booking-views';
import { BookingCounts1764620000000 } from './migrations/1764620000000-booking-counts';
import { AmountsInAnyCurrency1764700000000 } from './migrations/1764700000000-amounts-in-any-currency';
import { SupplierChecks1764900000000 } from './migrations/1764900000000-supplier-checks';
import { VoucherPdfs1765500000000 } from './migrations/1765500000000-voucher-pdfs';
import { CancellationInViews1765700000000 } from './migrations/1765700000000-cancellation-in-views';
import { WorkerLiveness1765800000000 } from './migrations/1765800000000-worker-liveness';
import { WorkerLiveness } from './bookings/worker-liveness';
import { CardPaymentProcessors1764760000000 } from './migrations/1764760000000-card-payment-processors';
import { ClientReferencesPerOwner1765000000000 } from './migrations/1765000000000-client-references-per-owner';
import { BookingEventEntity } from './events/booking-event.entity';
import { BookingEventsOutbox } from './events/booking-events-outbox';
import { BookingEventsRelay } from './events/booking-events-relay';
import { InstallationEntity } from './payments/installation.entity';
import { SandboxPaymentProcessor } from './payments/payment-processor';
import { PAYMENT_PROCESSORS_PROVIDER } from './payments/payment-processors';
import { Vouchers } from './vouchers/vouchers';

/** The booking schema's tables, as TypeORM entities. */
export const BOOKING_ENTITIES = [BookingEntity, BookingEventEntity, SandboxCardChargeEntity, SandboxCardRefundEntity, InstallationEntity];

/** The booking schema's migrations, in order. */
export const BOOKING_MIGRATIONS = [
  CreateBookings1763970000000,
  IndexBookingList1763980000000,
  SingleUsePrebooksAndCancellationSaga1764100000000,
  ScopedIdempotencyKeys1764200000000,
  IndexBookingListByWorld1764400000000,
  BookingEventsOutbox1764500000000,
  StoredBookingViews1764610000000,
  BookingCounts1764620000000,
  AmountsInAnyCurrency1764700000000,
  CardPaymentProcessors1764760000000,
  SupplierChecks1764900000000,
  ClientReferencesPerOwner1765000000000,
  VoucherPdfs1765500000000,
  CancellationInViews1765700000000,
  WorkerLiveness1765800000000,
];

@Module({})
export class BookingAppModule {
  static register(env: BookingEnv): DynamicModule {
    return {
      module: BookingAppModule,
      imports: [
        ServicePlatformModule.forService({
          name: 'booking',
          env,
          healthSubject: SUBJECTS.BOOKING_HEALTH_CHECK,
          entities: BOOKING_ENTITIES,
          migrations: BOOKING_MIGRATIONS,
        }),
      ],
      controllers: [BookingsController],
      providers: [
        BookingsRepository,
        BookingSaga,
        BookingFigures,
        BookingsService,
        Vouchers,
        FailPoints,
        BookingEventsOutbox,
        WorkerLiveness,
        BookingEventsRelay,
        SandboxPaymentProcessor,
        PAYMENT_PROCESSORS_PROVIDER,
      ],
    };
  }
}
