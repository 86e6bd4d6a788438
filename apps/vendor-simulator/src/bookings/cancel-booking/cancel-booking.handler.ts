import { Inject, Injectable } from '@nestjs/common';
import { toMilli } from '@hotel/contracts';
import type { BookingRS } from '@hotel/hotelbeds';
import { SIMULATOR_CLOCK, type SimulatorClock } from '../../clock';
import { notFound } from '../../http/vendor-errors';
import type { VendorCode } from '../../inventory/simulated-inventory';
import { hotelByCode } from '../../inventory/vendor-codes';
import { amountText, cancellationChargeMilli } from '../../rates/vendor-rates';
import { wireBooking } from '../booking-answer';
import { BookingRecord, BookingsRepository } from '../bookings.repository';

/** What cancelling a booking costs at `now`, by each room's cancellation policies. */
function cancellationCharge(record: BookingRecord, now: number): string {
  const charge = record.rooms.reduce(
    (sum, room) => sum + cancellationChargeMilli(room.cancellationPolicies.map((policy) => ({ amountMilli: toMilli(policy.amount), from: policy.from })), now),
    0,
  );
  return amountText(charge);
}

/**
 * DELETE /bookings/{reference}: SIMULATION answers what cancelling would cost now (the
 * hotel's `cancellationAmount`) and changes nothing; CANCELLATION cancels, gives the rooms
 * back to the allotment and answers the booking CANCELLED with what it cost; cancelling
 * again answers the same cancelled booking.
 */
@Injectable()
export class CancelBookingHandler {
  constructor(
    private readonly bookings: BookingsRepository,
    @Inject(SIMULATOR_CLOCK) private readonly clock: SimulatorClock,
  ) {}

  async cancel(vendor: VendorCode, reference: string, flag: 'CANCELLATION' | 'SIMULATION'): Promise<Omit<BookingRS, 'auditData'>> {
    const now = this.clock.now();
    await this.bookings.confirmDue(vendor, new Date(now));
    let record: BookingRecord | null;
    if (flag === 'SIMULATION') {
      record = await this.bookings.find(vendor, reference);
      if (!record) throw notFound(`Booking ${reference} not found`);
      const hotel = hotelByCode(record.booking.hotelCode)!;
      const cancellationAmount = record.booking.status === 'CANCELLED' ? undefined : cancellationCharge(record, now);
      return { booking: wireBooking(record, hotel, { kind: 'full', cancellationAmount }) };
    }
    record = await this.bookings.cancel(vendor, reference, new Date(now), (locked) => cancellationCharge(locked, now));
    if (!record) throw notFound(`Booking ${reference} not found`);
    return { booking: wireBooking(record, hotelByCode(record.booking.hotelCode)!, { kind: 'full' }) };
  }
}
