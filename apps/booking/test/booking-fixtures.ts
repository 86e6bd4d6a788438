import { RoomRequest, SUBJECTS, milliToDecimal, toMilli } from '@hotel/contracts';
import { VENDOR_CODES, hotelsForPlace, priceEpoch, toHotelDetails } from '@hotel/inventory';
import { randomUUID } from 'node:crypto';
import { FakeServiceClient, ServiceHarness, startServiceHarness } from '@hotel/testing';
// eslint-disable-next-line @nx/enforce-module-boundaries -- a real offer, priced as the vendor simulator prices it
import { VENDORS, listOffers, priceOffer } from '../../vendor-simulator/src/inventory/simulated-inventory';
import { BOOKING_ENTITIES, BOOKING_MIGRATIONS, BookingAppModule } from '../src/booking-app.module';
import { BookingEnv } from '../src/booking.env';
import { NewBooking } from '../src/bookings/bookings.repository';

const PARIS = 'gn:2988507';
const DAY_MS = 86_400_000;

/** For service-tier tests: the booking service's providers and migrations in the service harness, with `env` on top. */
export function startBookingHarness(env: Record<string, string> = {}): Promise<ServiceHarness<BookingEnv>> {
  return startServiceHarness({
    name: 'booking',
    envClass: BookingEnv,
    providers: (validated) => BookingAppModule.register(validated).providers ?? [],
    entities: BOOKING_ENTITIES,
    migrations: BOOKING_MIGRATIONS,
    env,
  });
}

/**
 * For service-tier tests: a booking as BookingsService would record it for client
 * 1, paying from its account: a real offer of a Paris hotel, priced as rates would
 * have confirmed it at prebook. Give each booking its own prebookId and requestFingerprint.
 */
export function newBookingTemplate(): NewBooking {
  const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
  const rooms: RoomRequest[] = [{ adults: 2, children: 0, children_ages: [] }];
  const stay = { check_in: day(30), check_out: day(33), rooms };
  const offers = (hotelsForPlace(PARIS) ?? []).flatMap((hotel) =>
    VENDOR_CODES.flatMap((code) => listOffers(hotel, VENDORS[code], stay, { soldOut: new Set(), includeMemberRates: false }).map((key) => ({ hotel, key }))),
  );
  const { hotel, key } = offers[0];
  const rate = { id: randomUUID(), ...priceOffer(hotel, key, stay, { epoch: priceEpoch(), issuedAt: new Date() }), payment_type: 'account' as const };
  return {
    clientId: 1,
    userId: null,
    sandbox: false,
    prebookId: '',
    offer: key,
    paymentMethod: 'account',
    hotelId: hotel.id,
    hotelName: hotel.name,
    checkIn: stay.check_in,
    checkOut: stay.check_out,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: '+33100000000',
    priceChargeable: milliToDecimal(toMilli(rate.price_chargeable)),
    priceCurrency: rate.price_currency,
    vendorCurrency: rate.price_currency,
    vendorPrice: milliToDecimal(toMilli(rate.price_chargeable)),
    fxRate: '1',
    fxRateDate: null,
    fxMarginPercent: '0',
    rate,
    hotel: toHotelDetails(hotel),
    rooms: [{ adults: [{ title: null, first_name: 'Ada', last_name: 'Lovelace' }], children: [] }],
    language: 'en',
    loyaltyNumber: null,
    specialRequest: null,
    remarks: '',
    clientReference: null,
    idempotencyKey: null,
    requestFingerprint: '',
    promoCode: null,
    promoDiscount: '0.00',
    testScenario: null,
  };
}

/**
 * For service-tier tests: the services a booking's saga calls answer as they do when all
 * goes well (funds held and captured or released, the vendor books and cancels, the prebook
 * attached, the refund posted). A test changes one answer with `client.on` again.
 */
export function answerSagaCallsNormally(client: FakeServiceClient): void {
  client
    .on(SUBJECTS.ACCOUNTING_HOLD_PLACE, ({ bookingId, amount }) => ({ bookingId, amount, status: 'active', entryId: null }))
    .on(SUBJECTS.RATES_SUPPLIER_BOOK, ({ bookingId }) => ({ reference: `SUP-${bookingId}`, status: 'confirmed' }))
    .on(SUBJECTS.ACCOUNTING_HOLD_CAPTURE, ({ bookingId }) => ({ bookingId, amount: '0.00', status: 'captured', entryId: bookingId }))
    .on(SUBJECTS.ACCOUNTING_HOLD_RELEASE, ({ bookingId }) => ({ bookingId, amount: '0.00', status: 'released', entryId: null }))
    .on(SUBJECTS.RATES_PREBOOK_ATTACH, () => ({ attached: true }))
    .on(SUBJECTS.RATES_SUPPLIER_CANCEL, ({ bookingId }) => ({ reference: `SUP-${bookingId}`, status: 'cancelled' }))
    // The saga reads nothing of the posted refund.
    .on(SUBJECTS.ACCOUNTING_REFUND_CREATE, ({ bookingId }) => ({ id: bookingId }) as never);
}
