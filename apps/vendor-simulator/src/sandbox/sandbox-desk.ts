import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { milliToDecimal, toMilli } from '@hotel/contracts';
import { decodeSandboxRateKey, type Booking, type BookingListRS, type BookingRS, type CheckRateRS, type Rate, type SandboxRateTerms } from '@hotel/hotelbeds';
import { SIMULATOR_CLOCK, type SimulatorClock } from '../clock';
import { wireBookingHead } from '../bookings/booking-answer';
import { BookingRecord, BookingsRepository } from '../bookings/bookings.repository';
import { invalidData, notFound, productError } from '../http/vendor-errors';
import { SANDBOX_DESK, type SimulatorScenario } from '../http/vendor-request';
import { roomIdOfCode } from '../inventory/simulated-inventory';
import { cancellationChargeMilli } from '../rates/vendor-rates';
import type { CredentialsByVendor } from '../vendors/vendor-credentials';
import { VENDOR_BEHAVIOUR, VENDOR_CREDENTIALS, type VendorBehaviour } from '../vendors/vendor-tokens';
import type { CreateBookingRequest } from '../bookings/create-booking/create-booking.request';
import type { CheckRateRequest } from '../checkrate/check-rate.request';

/** The desk's office: its references are 900-…. */
const OFFICE = '900';
const DAY_MS = 86_400_000;

type Answer<T> = Omit<T, 'auditData'>;

/**
 * The sandbox desk: every sandbox prebook and booking of the platform, whichever vendor
 * its rate came from. It books the rate keys the client writes (and signs with the desk's
 * secret): the price and terms they name, no allotment taken, the sandbox scenarios played
 * here (supplier_error refused, sold_out gone, supplier_pending PRECONFIRMED and confirmed
 * SUPPLIER_PENDING_S later). A refundable rate is free to cancel until the day before
 * arrival, a non-refundable one costs everything from the moment it is booked.
 */
@Injectable()
export class SandboxDesk {
  constructor(
    private readonly bookings: BookingsRepository,
    @Inject(SIMULATOR_CLOCK) private readonly clock: SimulatorClock,
    @Inject(VENDOR_CREDENTIALS) private readonly credentials: CredentialsByVendor,
    @Inject(VENDOR_BEHAVIOUR) private readonly behaviour: VendorBehaviour,
  ) {}

  checkRate(request: CheckRateRequest, scenario: SimulatorScenario | undefined): Answer<CheckRateRS> {
    const terms = this.termsOf(request.rooms.map((room) => room.rateKey));
    if (scenario === 'sold_out') throw productError('The rate is no longer available (sandbox scenario sold_out)');
    const now = this.clock.now();
    const [first] = terms;
    return {
      hotel: {
        checkIn: first.checkIn,
        checkOut: first.checkOut,
        code: first.hotelCode,
        name: first.hotelName,
        rooms: terms.map((term, index) => ({ code: term.roomCode, name: term.roomName, rates: [wireRate(term, request.rooms[index].rateKey, now)] })),
        totalNet: total(terms),
        currency: first.currency,
      },
    };
  }

  async book(request: CreateBookingRequest, scenario: SimulatorScenario | undefined): Promise<Answer<BookingRS>> {
    const keys = request.rooms.map((room) => room.rateKey);
    const terms = this.termsOf(keys);
    if (scenario === 'supplier_error') throw productError('The booking was refused by the hotel supplier (sandbox scenario supplier_error)');
    if (scenario === 'sold_out') throw productError('The rate is no longer available (sandbox scenario sold_out)');
    const now = this.clock.now();
    const [first] = terms;
    const pending = scenario === 'supplier_pending';
    const { record } = await this.bookings.book(
      {
        office: OFFICE,
        booking: {
          vendor: SANDBOX_DESK,
          clientReference: request.clientReference.toUpperCase(),
          roomsFingerprint: createHash('sha256').update([...keys].sort().join('\n')).digest('hex'),
          status: pending ? 'PRECONFIRMED' : 'CONFIRMED',
          hotelCode: first.hotelCode,
          countryCode: '',
          destinationCode: '',
          checkIn: first.checkIn,
          checkOut: first.checkOut,
          holderName: request.holder.name.toUpperCase(),
          holderSurname: request.holder.surname.toUpperCase(),
          remark: request.remark ?? null,
          currency: first.currency,
          paymentType: 'AT_WEB',
          totalNet: total(terms),
          cancellationAmount: null,
          creationUser: this.credentials.sandbox.apiKey,
          createdAt: new Date(now),
          modifiedAt: new Date(now),
          confirmAfter: pending ? new Date(now + this.behaviour.pendingSeconds * 1000) : null,
          cancelledAt: null,
        },
        rooms: terms.map((term, index) => ({
          roomNumber: index + 1,
          roomId: roomIdOfCode(term.roomCode) ?? 0,
          board: term.boardCode,
          refundable: term.refundable,
          memberRate: false,
          rooms: term.rooms,
          adults: term.adults,
          children: term.children,
          childrenAges: term.childAges,
          net: term.net,
          cancellationPolicies: policiesOf(term, now),
          paxes: (request.rooms[index].paxes ?? []).map((pax) => ({ roomId: pax.roomId ?? 1, type: pax.type, ...(pax.name && { name: pax.name }), ...(pax.surname && { surname: pax.surname }) })),
          rateKey: keys[index],
        })),
      },
      // The desk sells no real room: it takes no allotment.
      [],
    );
    return { booking: this.wireBooking(record) };
  }

  async detail(reference: string): Promise<Answer<BookingRS>> {
    await this.bookings.confirmDue(SANDBOX_DESK, new Date(this.clock.now()));
    const record = await this.bookings.find(SANDBOX_DESK, reference);
    if (!record) throw notFound(`Booking ${reference} not found`);
    return { booking: this.wireBooking(record) };
  }

  async cancel(reference: string, flag: 'CANCELLATION' | 'SIMULATION'): Promise<Answer<BookingRS>> {
    const now = this.clock.now();
    await this.bookings.confirmDue(SANDBOX_DESK, new Date(now));
    const charge = (record: BookingRecord) =>
      milliToDecimal(
        record.rooms.reduce((sum, room) => sum + cancellationChargeMilli(room.cancellationPolicies.map((policy) => ({ amountMilli: toMilli(policy.amount), from: policy.from })), now), 0),
        2,
      );
    if (flag === 'SIMULATION') {
      const record = await this.bookings.find(SANDBOX_DESK, reference);
      if (!record) throw notFound(`Booking ${reference} not found`);
      return { booking: this.wireBooking(record, record.booking.status === 'CANCELLED' ? undefined : charge(record)) };
    }
    const record = await this.bookings.cancel(SANDBOX_DESK, reference, new Date(now), charge);
    if (!record) throw notFound(`Booking ${reference} not found`);
    return { booking: this.wireBooking(record) };
  }

  async list(query: { start: string; end: string; from: number; to: number; clientReference?: string; status?: 'ALL' | 'CONFIRMED' | 'CANCELLED' }): Promise<Answer<BookingListRS>> {
    if (query.to < query.from || query.to - query.from + 1 > 1000) throw invalidData(`from ${query.from} to ${query.to}: a page is 1 to 1000 bookings`);
    await this.bookings.confirmDue(SANDBOX_DESK, new Date(this.clock.now()));
    const { bookings, total: count } = await this.bookings.list(
      SANDBOX_DESK,
      { start: query.start, end: query.end, filterType: 'CREATION', status: query.status ?? 'ALL', clientReference: query.clientReference?.toUpperCase() },
      query.from - 1,
      query.to - query.from + 1,
    );
    const listed = bookings.map((booking) => this.wireBooking({ booking, rooms: [] }));
    return { bookings: { ...(listed.length > 0 && { bookings: listed }), from: query.from, to: query.to, total: count } };
  }

  /** Every key's terms, all for one hotel and stay; INVALID_DATA for a key the desk did not sign. */
  private termsOf(keys: string[]): SandboxRateTerms[] {
    const terms = keys.map((key) => decodeSandboxRateKey(key, this.credentials.sandbox.secret));
    if (terms.some((term) => term === null)) throw invalidData('a rateKey is not a sandbox rate key signed for this desk');
    const [first] = terms as SandboxRateTerms[];
    if ((terms as SandboxRateTerms[]).some((term) => term.hotelCode !== first.hotelCode || term.checkIn !== first.checkIn || term.checkOut !== first.checkOut || term.currency !== first.currency)) {
      throw invalidData('the rateKeys of one request are for one hotel, stay and currency');
    }
    return terms as SandboxRateTerms[];
  }

  private wireBooking(record: BookingRecord, cancellationAmount?: string): Booking {
    const { booking, rooms } = record;
    const name = rooms[0] ? (decodeSandboxRateKey(rooms[0].rateKey, this.credentials.sandbox.secret)?.hotelName ?? '') : '';
    const amount = booking.status === 'CANCELLED' ? booking.cancellationAmount! : cancellationAmount;
    return {
      ...wireBookingHead(record),
      hotel: {
        checkIn: booking.checkIn,
        checkOut: booking.checkOut,
        code: booking.hotelCode,
        name,
        totalNet: booking.totalNet,
        currency: booking.currency,
        ...(rooms.length > 0 && {
          rooms: rooms.map((room) => ({
            status: booking.status,
            id: room.roomNumber,
            paxes: room.paxes,
            rates: [{ rateClass: room.refundable ? 'NOR' : 'NRF', net: room.net, paymentType: 'AT_WEB', boardCode: room.board, cancellationPolicies: room.cancellationPolicies, rooms: room.rooms, adults: room.adults, children: room.children }],
          })),
        }),
        ...(amount !== undefined && { cancellationAmount: amount }),
      },
      ...(booking.remark !== null && { remark: booking.remark }),
    };
  }
}

function total(terms: readonly SandboxRateTerms[]): string {
  return milliToDecimal(
    terms.reduce((sum, term) => sum + toMilli(term.net), 0),
    3,
  );
}

/** Refundable: free until the day before arrival (23:59 UTC), then all of it; non-refundable: all of it from now. */
function policiesOf(term: SandboxRateTerms, now: number): { amount: string; from: string }[] {
  const from = term.refundable ? `${new Date(Date.parse(`${term.checkIn}T23:59:00Z`) - DAY_MS).toISOString().slice(0, 19)}+00:00` : `${new Date(now).toISOString().slice(0, 19)}+00:00`;
  return [{ amount: term.net, from }];
}

function wireRate(term: SandboxRateTerms, rateKey: string, now: number): Rate {
  return {
    rateKey,
    rateClass: term.refundable ? 'NOR' : 'NRF',
    rateType: 'BOOKABLE',
    net: term.net,
    paymentType: 'AT_WEB',
    packaging: false,
    boardCode: term.boardCode,
    cancellationPolicies: policiesOf(term, now),
    rooms: term.rooms,
    adults: term.adults,
    children: term.children,
    ...(term.childAges.length > 0 && { childrenAges: term.childAges.join(',') }),
  };
}
