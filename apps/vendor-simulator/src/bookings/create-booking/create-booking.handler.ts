import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { BookingRS, Pax } from '@hotel/hotelbeds';
import { SIMULATOR_CLOCK, type SimulatorClock } from '../../clock';
import { invalidData, productError } from '../../http/vendor-errors';
import type { SimulatorScenario } from '../../http/vendor-request';
import { VENDORS, allotmentCapacity, priceEpoch, type Hotel, type VendorCode } from '../../inventory/simulated-inventory';
import { VENDOR_OFFICES, destinationCodeOf, hotelCodeOf } from '../../inventory/vendor-codes';
import { nightsOf } from '../../protocol/request-parts';
import type { RateTerms } from '../../rates/rate-key';
import { requestedRates, roomsWanted } from '../../rates/requested-rates';
import { RATE_KEY_VALID_EPOCHS, amountText, paymentTypeOf, priceRate, rateTypeOf, type PricedRate } from '../../rates/vendor-rates';
import type { CredentialsByVendor } from '../../vendors/vendor-credentials';
import { VENDOR_BEHAVIOUR, VENDOR_CREDENTIALS, type VendorBehaviour } from '../../vendors/vendor-tokens';
import { wireBooking } from '../booking-answer';
import { AllotmentExhausted, BookingsRepository } from '../bookings.repository';
import type { CreateBookingRequest } from './create-booking.request';

/**
 * Books rate keys: one hotel, one stay, its rooms taken from the vendor's allotment on
 * every night, all or nothing, and recorded. Prices: a BOOKABLE key, or one CheckRate
 * issued, books at its own price while it is fresh (RATE_KEY_VALID_EPOCHS); a RECHECK key
 * never re-checked books at today's price, unless that is above the key's by more than
 * `tolerance` percent ("Price has changed").
 *
 * The same client reference with the same rooms, booked again while the first booking
 * lives, answers the first booking: the simulator de-duplicates. Real Hotelbeds may not
 * (it takes a client reference as a label, not as an idempotency key), which is why the
 * platform asks (the booking list by client reference) before booking again after a lost
 * answer.
 *
 * Sandbox scenarios: supplier_error refuses, sold_out answers the rate gone,
 * supplier_pending makes the booking PRECONFIRMED, confirmed SUPPLIER_PENDING_S later.
 */
@Injectable()
export class CreateBookingHandler {
  constructor(
    private readonly bookings: BookingsRepository,
    @Inject(SIMULATOR_CLOCK) private readonly clock: SimulatorClock,
    @Inject(VENDOR_CREDENTIALS) private readonly credentials: CredentialsByVendor,
    @Inject(VENDOR_BEHAVIOUR) private readonly behaviour: VendorBehaviour,
  ) {}

  async book(vendorCode: VendorCode, request: CreateBookingRequest, scenario: SimulatorScenario | undefined): Promise<Omit<BookingRS, 'auditData'>> {
    const now = this.clock.now();
    const vendor = VENDORS[vendorCode];
    const { apiKey, secret } = this.credentials[vendorCode];
    const { hotel, checkIn, checkOut, terms } = requestedRates(vendorCode, secret, request.rooms.map((room) => room.rateKey), now);
    const paxes = request.rooms.map((room, index) => paxesOf(room.paxes, terms[index], index));
    if (scenario === 'supplier_error') throw productError('The booking was refused by the hotel supplier (sandbox scenario supplier_error)');
    if (scenario === 'sold_out') throw productError('The rate is no longer available (sandbox scenario sold_out)');
    const priced = terms.map((term) => this.bookingPrice(hotel, term, request.tolerance ?? 0, now));
    const nights = nightsOf(checkIn, checkOut);
    const takes = [...roomsWanted(terms)].map(([roomId, rooms]) => ({
      hotelCode: hotelCodeOf(hotel),
      roomId,
      rooms,
      capacity: allotmentCapacity(vendorCode, hotel.id, roomId),
      nights,
    }));
    const pending = scenario === 'supplier_pending';
    let outcome;
    try {
      outcome = await this.bookings.book(
        {
          office: VENDOR_OFFICES[vendorCode].office,
          booking: {
            vendor: vendorCode,
            clientReference: request.clientReference.toUpperCase(),
            roomsFingerprint: roomsFingerprint(terms),
            status: pending ? 'PRECONFIRMED' : 'CONFIRMED',
            hotelCode: hotelCodeOf(hotel),
            countryCode: hotel.city.countryCode,
            destinationCode: destinationCodeOf(hotel),
            checkIn,
            checkOut,
            holderName: request.holder.name.toUpperCase(),
            holderSurname: request.holder.surname.toUpperCase(),
            remark: request.remark ?? null,
            currency: vendor.currency,
            paymentType: paymentTypeOf(vendor),
            totalNet: amountText(priced.reduce((sum, rate) => sum + rate.netMilli, 0)),
            cancellationAmount: null,
            creationUser: apiKey,
            createdAt: new Date(now),
            modifiedAt: new Date(now),
            confirmAfter: pending ? new Date(now + this.behaviour.pendingSeconds * 1000) : null,
            cancelledAt: null,
          },
          rooms: priced.map((rate, index) => ({
            roomNumber: index + 1,
            roomId: rate.terms.roomId,
            board: rate.terms.board,
            refundable: rate.terms.refundable,
            memberRate: rate.terms.memberRate,
            rooms: rate.terms.occupancy.rooms,
            adults: rate.terms.occupancy.adults,
            children: rate.terms.occupancy.children,
            childrenAges: rate.terms.occupancy.childAges,
            net: amountText(rate.netMilli),
            cancellationPolicies: rate.policies.map((policy) => ({ amount: amountText(policy.amountMilli), from: policy.from })),
            paxes: paxes[index],
            rateKey: request.rooms[index].rateKey,
          })),
        },
        takes,
      );
    } catch (error) {
      if (error instanceof AllotmentExhausted) throw productError('Insufficient allotment');
      throw error;
    }
    let record = outcome.record;
    if (!outcome.created && record.booking.status === 'PRECONFIRMED') {
      await this.bookings.confirmDue(vendorCode, new Date(now));
      record = (await this.bookings.find(vendorCode, record.booking.reference)) ?? record;
    }
    return { booking: wireBooking(record, hotel, { kind: 'full' }) };
  }

  private bookingPrice(hotel: Hotel, term: RateTerms, tolerance: number, now: number): PricedRate {
    const currentEpoch = priceEpoch(now);
    if (term.checked || rateTypeOf(term) === 'BOOKABLE') {
      if (currentEpoch - term.epoch > RATE_KEY_VALID_EPOCHS) throw productError('The rate is no longer available at that price: its key has expired, search again');
      return priceRate(hotel, term, now);
    }
    const quoted = priceRate(hotel, term, now);
    const current = priceRate(hotel, { ...term, epoch: currentEpoch }, now);
    // A comparison, not a sum: a float is exact enough to tell which side of the tolerance a price is.
    if (current.netMilli * 100 > quoted.netMilli * (100 + tolerance)) throw productError('Price has changed: check the rate again (CheckRate)');
    return current;
  }
}

/** The paxes of one booked room entry, each in one of its rooms (roomId 1 by default). */
function paxesOf(given: CreateBookingRequest['rooms'][number]['paxes'], term: RateTerms, index: number): Pax[] {
  return (given ?? []).map((pax) => {
    const roomId = pax.roomId ?? 1;
    if (roomId > term.occupancy.rooms) throw invalidData(`rooms[${index}]: a pax in room ${roomId} of a rate of ${term.occupancy.rooms} rooms`);
    return {
      roomId,
      type: pax.type,
      ...(pax.age !== undefined && { age: pax.age }),
      ...(pax.name !== undefined && { name: pax.name }),
      ...(pax.surname !== undefined && { surname: pax.surname }),
    };
  });
}

/**
 * What makes a booking the same booking for de-duplication: its hotel, stay and each
 * room's type, board, terms and occupancy; not the price step or where the key came
 * from, so a key re-checked books the same rooms as the key it came from.
 */
function roomsFingerprint(terms: readonly RateTerms[]): string {
  const rooms = terms
    .map((term) => [term.hotelCode, term.checkIn, term.checkOut, term.roomId, term.board, term.refundable, term.memberRate, term.occupancy.rooms, term.occupancy.adults, term.occupancy.children, term.occupancy.childAges.join('~')].join('|'))
    .sort();
  return createHash('sha256').update(rooms.join('\n')).digest('hex');
}
