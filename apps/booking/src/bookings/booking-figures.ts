import { Inject, Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { APP_METRICS, AppMetrics, SERVICE_ENV } from '@hotel/platform';
import { BookingEnv } from '../booking.env';
import { BookingEntity } from './booking.entity';
import { BookingsRepository } from './bookings.repository';

/** The booking service's business metrics (deploy/README.md): final statuses reached, their value, and how sagas keep up. */
@Injectable()
export class BookingFigures {
  private readonly reached: Counter<'status' | 'world'>;
  private readonly value: Counter<'status' | 'currency' | 'world'>;

  constructor(@Inject(APP_METRICS) metrics: AppMetrics, @Inject(SERVICE_ENV) env: BookingEnv, bookings: BookingsRepository) {
    this.reached = metrics.counter('hotel_bookings_total', 'Bookings that reached a final status (confirmed, failed, cancelled), by world (live, sandbox)', ['status', 'world']);
    // `world`: live or sandbox. A finance figure reads world="live": sandbox bookings move no money.
    this.value = metrics.counter('hotel_booking_value_total', 'Chargeable price of the bookings that reached a final status, by currency and world (live, sandbox)', ['status', 'currency', 'world']);
    // Past its lease, not merely old: a saga waiting on a vendor under a live lease is fine; one
    // whose lease ran out and that recovery has not taken over is not.
    metrics.gauge('hotel_saga_overdue_seconds', 'Seconds the unfinished saga whose lease ran out first has been past it (0: none)', async (gauge) =>
      gauge.set(await bookings.overdueSeconds()),
    );
    metrics.gauge('hotel_saga_lease_seconds', 'How long a worker owns a saga before recovery may take it over (SAGA_LEASE_S)', (gauge) => gauge.set(env.SAGA_LEASE_S));
  }

  /** A booking reached a final status (counted once: only the worker whose move succeeded calls this). */
  settled(booking: BookingEntity): void {
    const world = booking.sandbox ? 'sandbox' : 'live';
    this.reached.inc({ status: booking.status, world });
    this.value.inc({ status: booking.status, currency: booking.priceCurrency, world }, Number(booking.priceChargeable));
  }
}
