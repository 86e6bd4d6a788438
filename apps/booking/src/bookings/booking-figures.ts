import { Inject, Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { APP_METRICS, AppMetrics, SERVICE_ENV } from '@hotel/platform';
import { BookingEnv } from '../booking.env';
import { BookingEntity } from './booking.entity';
import { BookingsRepository } from './bookings.repository';

/** The booking service's business metrics (deploy/README.md): final statuses reached, their value, and how sagas keep up. */
@Injectable()
export class BookingFigures {
  private readonly reached: Counter<'status'>;
  private readonly value: Counter<'status' | 'currency'>;

  constructor(@Inject(APP_METRICS) metrics: AppMetrics, @Inject(SERVICE_ENV) env: BookingEnv, bookings: BookingsRepository) {
    this.reached = metrics.counter('hotel_bookings_total', 'Bookings that reached a final status (confirmed, failed, cancelled)', ['status']);
    this.value = metrics.counter('hotel_booking_value_total', 'Chargeable price of the bookings that reached a final status, by currency', ['status', 'currency']);
    metrics.gauge('hotel_saga_oldest_unfinished_age_seconds', 'Seconds since the unfinished saga that moved least recently last moved (0: none)', async (gauge) =>
      gauge.set(await bookings.oldestUnfinishedAgeSeconds()),
    );
    metrics.gauge('hotel_saga_lease_seconds', 'How long a worker owns a saga before recovery may take it over (SAGA_LEASE_S)', (gauge) => gauge.set(env.SAGA_LEASE_S));
  }

  /** A booking reached a final status (counted once: only the worker whose move succeeded calls this). */
  settled(booking: BookingEntity): void {
    this.reached.inc({ status: booking.status });
    this.value.inc({ status: booking.status, currency: booking.priceCurrency }, Number(booking.priceChargeable));
  }
}
