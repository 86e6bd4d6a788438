import { Inject, Injectable } from '@nestjs/common';
import type { BookingListRS, BookingRS } from '@hotel/hotelbeds';
import { SIMULATOR_CLOCK, type SimulatorClock } from '../../clock';
import { invalidData, notFound } from '../../http/vendor-errors';
import type { VendorCode } from '../../inventory/simulated-inventory';
import { hotelByCode } from '../../inventory/vendor-codes';
import { wireBooking } from '../booking-answer';
import { BookingsRepository } from '../bookings.repository';
import type { BookingListQuery } from './booking-list.query';

/** The largest page of the booking list served. */
const MAX_LIST_PAGE = 1000;

/** A booking by reference, and the booking list; pending bookings whose time has come are confirmed first. */
@Injectable()
export class FindBookingsHandler {
  constructor(
    private readonly bookings: BookingsRepository,
    @Inject(SIMULATOR_CLOCK) private readonly clock: SimulatorClock,
  ) {}

  async detail(vendor: VendorCode, reference: string): Promise<Omit<BookingRS, 'auditData'>> {
    await this.bookings.confirmDue(vendor, new Date(this.clock.now()));
    const record = await this.bookings.find(vendor, reference);
    if (!record) throw notFound(`Booking ${reference} not found`);
    return { booking: wireBooking(record, hotelByCode(record.booking.hotelCode)!, { kind: 'full' }) };
  }

  /**
   * The vendor's bookings between `start` and `end` (by creation day unless filterType
   * says otherwise; every status unless `status` says otherwise), `from`–`to` of them,
   * oldest first. Client references are compared as the vendor keeps them, in upper case.
   */
  async list(vendor: VendorCode, query: BookingListQuery): Promise<Omit<BookingListRS, 'auditData'>> {
    if (query.to < query.from || query.to - query.from + 1 > MAX_LIST_PAGE) throw invalidData(`from ${query.from} to ${query.to}: a page is 1 to ${MAX_LIST_PAGE} bookings`);
    if (query.end < query.start) throw invalidData('end is before start');
    const filterType = query.filterType ?? 'CREATION';
    if (filterType === 'CLXPOLICIES') throw invalidData('filterType CLXPOLICIES is not served by the simulated vendors');
    await this.bookings.confirmDue(vendor, new Date(this.clock.now()));
    const { bookings, total } = await this.bookings.list(
      vendor,
      {
        start: query.start,
        end: query.end,
        filterType,
        status: query.status ?? 'ALL',
        clientReference: query.clientReference?.toUpperCase(),
        hotelCodes: query.hotel?.split(',').map(Number),
        countries: query.country?.toUpperCase().split(','),
        destinations: query.destination?.split(','),
      },
      query.from - 1,
      query.to - query.from + 1,
    );
    const listed = bookings.map((booking) => wireBooking({ booking, rooms: [] }, hotelByCode(booking.hotelCode)!, { kind: 'summary' }));
    return { bookings: { ...(listed.length > 0 && { bookings: listed }), from: query.from, to: query.to, total } };
  }
}
