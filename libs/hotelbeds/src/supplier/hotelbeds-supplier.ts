import { LRUCache } from 'lru-cache';
import { CircuitState, HotelRate, SupplierBooking, milliToDecimal, toMilli } from '@hotel/contracts';
import {
  AvailabilityRequest,
  Hotel,
  OfferKey,
  PlacedSupplierBooking,
  PricingContext,
  Stay,
  SupplierBookingOrder,
  SupplierOffer,
  SupplierPort,
  VendorBookingSummary,
  VendorOccupancy,
  isImportedHotelId,
  offerKeyString,
  roomCodeOf,
} from '@hotel/inventory';
import { DomainError } from '@hotel/platform';
import { HotelbedsClient, MAX_HOTELS_PER_AVAILABILITY } from '../client';
import { HotelbedsError } from '../errors';
import type { Booking, BookingStatus, ContentHotelsRS, Pax } from '../wire';
import { decodeSandboxRateKey, encodeSandboxRateKey } from '../sandbox/sandbox-rate-key';
import { availabilityRequest, offersOfHotel, recheckedOffer } from './offer-mapping';

export interface HotelbedsSupplierOptions {
  /** The platform's code for this vendor (`hotelbeds`, or a simulated vendor's). */
  code: string;
  name: string;
  client: HotelbedsClient;
  clock?: () => number;
  /**
   * The vendor's codes of the platform's hotels (what the content import matched); without
   * it a hotel's code is its platform id, as for the simulated vendors, which share the
   * platform's generated catalog.
   */
  hotelCodes?: HotelCodeBook;
  /** The platform imports this vendor's hotel content (its codes are its own, matched by the import). */
  importsContent?: boolean;
  /**
   * The vendor simulator's sandbox desk: a sandbox prebook is its CheckRate and a sandbox
   * booking its booking, whatever this vendor is (test traffic never reaches a real vendor).
   */
  sandboxDesk: SandboxDeskOptions;
}

export interface SandboxDeskOptions {
  client: HotelbedsClient;
  /** The desk's secret: it signs the rate keys written for the desk. */
  secret: string;
}

/** The desk's booking references (its office 900). */
const DESK_REFERENCE = /^900-\d+$/;

/** The vendor's code of each platform hotel it carries, from the catalog the content import keeps. */
export interface HotelCodeBook {
  /** Platform hotel id → the vendor's code, for those of `hotelIds` the vendor carries. */
  codesOf(vendor: string, hotelIds: readonly number[]): Promise<ReadonlyMap<number, number>>;
}

/** The simulated vendors' numbering: a hotel's code is its platform id (of the generated catalog, which is all they carry). */
export const PLATFORM_HOTEL_CODES: HotelCodeBook = {
  async codesOf(_vendor, hotelIds) {
    return new Map(hotelIds.filter((id) => !isImportedHotelId(id)).map((id) => [id, id]));
  },
};

const DAY_MS = 86_400_000;
/** Bookings per page of the booking list when every booking of a period is read (a page the vendor serves quickly). */
const LIST_PAGE_SIZE = 100;
/** A CheckRate answer serves the prebook that asked for it: its price right after its recheck. */
const CHECKED_TTL_MS = 60_000;

/**
 * A Hotelbeds APItude vendor behind the platform's SupplierPort: availability by hotel codes
 * (2000 a call), CheckRate at prebook, bookings by client reference `HB<booking id>`, their
 * detail, the booking list to find one whose answer was lost, and cancellation.
 *
 * Sandbox traffic never reaches the vendor: a sandbox prebook is the sandbox desk's CheckRate
 * (at the price the client saw) and a sandbox booking the desk's booking.
 *
 * What the vendor says is translated once: a refusal (a rate gone, a price changed) is a
 * DomainError the booking fails on; no answer, or one that cannot be read, is thrown as it
 * is, so the booking's next attempt asks the vendor (find) before booking again.
 */
export class HotelbedsSupplier implements SupplierPort {
  readonly code: string;
  readonly name: string;
  readonly importsContent: boolean;
  private readonly desk: SandboxDeskOptions;
  private readonly client: HotelbedsClient;
  private readonly now: () => number;
  /** CheckRate answers by the keys they gave: a process-local memo of the last minute, never needed by another replica. */
  private readonly hotelCodes: HotelCodeBook;
  private readonly checked = new LRUCache<string, SupplierOffer>({ max: 1000, ttl: CHECKED_TTL_MS });

  constructor(options: HotelbedsSupplierOptions) {
    this.code = options.code;
    this.name = options.name;
    this.client = options.client;
    this.now = options.clock ?? Date.now;
    this.hotelCodes = options.hotelCodes ?? PLATFORM_HOTEL_CODES;
    this.importsContent = options.importsContent ?? false;
    this.desk = options.sandboxDesk;
  }

  async availability(hotels: readonly Hotel[], stay: Stay, request: AvailabilityRequest, knownCodes?: ReadonlyMap<number, number>): Promise<SupplierOffer[][]> {
    const answer: SupplierOffer[][] = hotels.map(() => []);
    const codes = knownCodes ?? (await this.hotelCodes.codesOf(this.code, hotels.map((hotel) => hotel.id)));
    // The vendor answers by its codes; a hotel it has no code for is not asked about.
    const indexOfCode = new Map<number, number>();
    hotels.forEach((hotel, index) => {
      const code = codes.get(hotel.id);
      if (code !== undefined) indexOfCode.set(code, index);
    });
    const asked = [...indexOfCode.keys()];
    if (asked.length === 0) return answer;
    const now = new Date(this.now());
    const chunks: number[][] = [];
    for (let start = 0; start < asked.length; start += MAX_HOTELS_PER_AVAILABILITY) chunks.push(asked.slice(start, start + MAX_HOTELS_PER_AVAILABILITY));
    await Promise.all(
      chunks.map(async (chunk) => {
        const response = await this.client.availability(availabilityRequest(chunk, stay));
        for (const wireHotel of response.hotels.hotels ?? []) {
          const index = indexOfCode.get(wireHotel.code);
          if (index !== undefined) answer[index] = offersOfHotel(this.code, hotels[index], wireHotel, stay, now, request.includeMemberRates);
        }
      }),
    );
    return answer;
  }

  /** The price now: what CheckRate answered for the keys the recheck gave (asked again if that is gone). */
  async price(hotel: Hotel, offer: OfferKey, stay: Stay, context: PricingContext & { sandbox?: boolean }): Promise<Omit<HotelRate, 'id'>> {
    const memo = this.checked.get(memoKey(offer));
    if (memo) return memo.rate;
    const checked = context.sandbox ? await this.deskCheck(hotel, offer, stay) : await this.checkRate(hotel, offer, stay);
    return checked?.rate ?? unavailable();
  }

  async seenPrice(_hotel: Hotel, offer: OfferKey): Promise<{ milli: number; currency: string }> {
    const vendorRate = requireVendorRate(offer);
    return { milli: toMilli(vendorRate.net), currency: vendorRate.currency };
  }

  /** CheckRate (a sandbox prebook: the desk's): the offer with the keys to book with, or null when the vendor no longer has it. */
  async recheck(hotel: Hotel, offer: OfferKey, stay: Stay, sandbox = false): Promise<OfferKey | null> {
    if (sandbox) return (await this.deskCheck(hotel, offer, stay))?.key ?? null;
    return (await this.checkRate(hotel, offer, stay))?.key ?? null;
  }

  async book(order: SupplierBookingOrder): Promise<SupplierBooking> {
    const vendorRate = order.vendorRate;
    if (!vendorRate || vendorRate.keys.length !== vendorRate.occupancies.length) {
      throw new DomainError('SUPPLIER_ERROR', `the booking with ${this.name} has no rate of the vendor to book; prebook again`);
    }
    const holder = order.holder ?? { name: 'Guest', surname: 'Guest' };
    try {
      // Test traffic goes to the desk, which plays the sandbox scenario asked for.
      const [client, headers] = order.sandbox ? [this.desk.client, order.testScenario ? { 'X-Test-Scenario': order.testScenario } : undefined] : [this.client, undefined];
      const { booking } = await client.book(
        {
          holder,
          clientReference: clientReferenceOf(order.bookingId),
          rooms: vendorRate.keys.map((rateKey, group) => ({ rateKey, paxes: paxesOf(vendorRate.occupancies[group], holder) })),
        },
        headers,
      );
      return answerOf(booking);
    } catch (error) {
      throw refusalOf(error, this.name);
    }
  }

  /** The live booking the vendor holds under this order's client reference, made in the last days. */
  async find(order: SupplierBookingOrder): Promise<SupplierBooking | null> {
    const today = this.now();
    const found = await (order.sandbox ? this.desk.client : this.client).findByClientReference(clientReferenceOf(order.bookingId), { start: isoDay(today - 7 * DAY_MS), end: isoDay(today + DAY_MS) });
    const live = found.find((booking) => booking.status !== 'CANCELLED') ?? found[0];
    return live ? answerOf(live) : null;
  }

  async status(booking: PlacedSupplierBooking): Promise<SupplierBooking> {
    const client = this.clientOf(booking);
    if (!client) return heldByNobody(booking);
    const answer = await client.bookingDetail(booking.reference);
    return answerOf(answer.booking);
  }

  async cancel(booking: PlacedSupplierBooking): Promise<SupplierBooking> {
    const client = this.clientOf(booking);
    if (!client) return { reference: booking.reference, status: 'cancelled' };
    try {
      const answer = await client.cancel(booking.reference);
      return withCharge(answer.booking);
    } catch (error) {
      // Cancelled before (a repeat whose first answer was lost): the booking says so.
      if (error instanceof HotelbedsError && error.kind === 'refused') {
        const detail = await client.bookingDetail(booking.reference);
        if (detail.booking.status === 'CANCELLED') return withCharge(detail.booking);
      }
      throw refusalOf(error, this.name);
    }
  }

  /** The booking list by creation day, every status, page by page. */
  async bookingsMade(start: string, end: string): Promise<VendorBookingSummary[]> {
    const made: VendorBookingSummary[] = [];
    for await (const page of this.client.bookingListPages({ start, end, filterType: 'CREATION', status: 'ALL' }, LIST_PAGE_SIZE)) {
      for (const booking of page.bookings.bookings ?? []) made.push(summaryOf(booking, start));
    }
    return made;
  }

  /** The vendor's hotel content, page by page (every field, in English). */
  contentPages(query: { countryCode?: string; destinationCode?: string; lastUpdateTime?: string }): AsyncGenerator<ContentHotelsRS> {
    return this.client.contentHotelPages({ ...query, fields: 'all', language: 'ENG' });
  }

  /** Each operation's circuit breaker state, for health detail and metrics. */
  circuits(): Record<string, CircuitState> {
    return Object.fromEntries(Object.entries(this.client.health()).map(([operation, health]) => [operation, health.state]));
  }

  close(): void {
    this.client.close();
    // Shared by the suppliers; closing it again does nothing.
    this.desk?.client.close();
  }

  /**
   * Who holds a placed booking: the vendor, the sandbox desk, or nobody: a sandbox booking
   * of a release that answered test bookings itself, without a desk.
   */
  private clientOf(booking: PlacedSupplierBooking): HotelbedsClient | undefined {
    if (!booking.sandbox) return this.client;
    return DESK_REFERENCE.test(booking.reference) ? this.desk.client : undefined;
  }

  /**
   * A sandbox prebook: the offer as rate keys for the desk (what the client saw, signed for
   * the desk), rechecked there. Keys that are the desk's already (a second recheck) go as they are.
   */
  private async deskCheck(hotel: Hotel, offer: OfferKey, stay: Stay): Promise<SupplierOffer | null> {
    const desk = this.desk;
    const vendorRate = requireVendorRate(offer);
    const keys = vendorRate.keys.every((key) => decodeSandboxRateKey(key, desk.secret) !== null) ? vendorRate.keys : deskKeysOf(hotel, offer, stay, desk.secret);
    let answer;
    try {
      answer = await desk.client.checkRate({ rooms: keys.map((rateKey) => ({ rateKey })) });
    } catch (error) {
      if (error instanceof HotelbedsError && error.kind === 'refused') return null;
      throw unavailableError(error, 'the sandbox desk');
    }
    const checked = recheckedOffer(hotel, { ...offer, vendorRate: { ...vendorRate, keys } }, answer.hotel, stay, new Date(this.now()));
    if (checked) this.checked.set(memoKey(checked.key), checked);
    return checked;
  }

  private async checkRate(hotel: Hotel, offer: OfferKey, stay: Stay): Promise<SupplierOffer | null> {
    const vendorRate = requireVendorRate(offer);
    let answer;
    try {
      answer = await this.client.checkRate({ rooms: vendorRate.keys.map((rateKey) => ({ rateKey })) });
    } catch (error) {
      if (error instanceof HotelbedsError && error.kind === 'refused') return null;
      throw unavailableError(error, this.name);
    }
    const checked = recheckedOffer(hotel, offer, answer.hotel, stay, new Date(this.now()));
    if (checked) this.checked.set(memoKey(checked.key), checked);
    return checked;
  }
}

/** The vendor's client reference of a platform booking: at most 20 characters, letters and digits. */
export function clientReferenceOf(bookingId: number): string {
  return `HB${bookingId}`;
}

/** The platform booking id a vendor's client reference names (`HB<id>`, in any case), or null for another reference. */
export function bookingIdOfClientReference(clientReference: string | null): number | null {
  const match = /^HB([1-9]\d{0,9})$/i.exec(clientReference ?? '');
  const id = match ? Number(match[1]) : NaN;
  // An integer column: a larger number names no platform booking.
  return id <= 2_147_483_647 ? id : null;
}

/** The desk's rate keys of an offer: one per group of identical rooms, its price shared by rooms (exactly: the remainder to the last). */
function deskKeysOf(hotel: Hotel, offer: OfferKey, stay: Stay, secret: string): string[] {
  const vendorRate = offer.vendorRate!;
  const total = toMilli(vendorRate.net);
  const allRooms = vendorRate.occupancies.reduce((sum, group) => sum + group.rooms, 0);
  let given = 0;
  return vendorRate.occupancies.map((group, index) => {
    const share = index === vendorRate.occupancies.length - 1 ? total - given : Math.floor((total * group.rooms) / allRooms);
    given += share;
    return encodeSandboxRateKey(
      {
        hotelCode: vendorRate.hotelCode ?? hotel.id,
        hotelName: hotel.name,
        roomCode: roomCodeOf({ roomId: offer.roomId }),
        roomName: hotel.roomTypes.find((room) => room.roomId === offer.roomId)?.name ?? roomCodeOf({ roomId: offer.roomId }),
        boardCode: offer.board,
        refundable: offer.refundable,
        checkIn: stay.check_in,
        checkOut: stay.check_out,
        rooms: group.rooms,
        adults: group.guests.adults,
        children: group.guests.children,
        childAges: group.guests.children_ages,
        net: milliToDecimal(share, 3),
        currency: vendorRate.currency,
      },
      secret,
    );
  });
}

function memoKey(offer: OfferKey): string {
  return `${offerKeyString(offer)}|${offer.vendorRate?.keys.join('|')}`;
}

function requireVendorRate(offer: OfferKey) {
  if (!offer.vendorRate) throw new DomainError('RATE_NOT_AVAILABLE', 'rate not available: search again');
  return offer.vendorRate;
}

/** A sandbox booking no vendor holds stays as recorded; a pending one is taken as confirmed (nobody will confirm it). */
function heldByNobody(booking: PlacedSupplierBooking): SupplierBooking {
  return { reference: booking.reference, status: booking.status === 'pending' ? 'confirmed' : booking.status };
}

function unavailable(): never {
  throw new DomainError('RATE_NOT_AVAILABLE', 'rate not available');
}

/** Each room's guests: its adults in the holder's name, its children by age. */
function paxesOf({ rooms, guests }: VendorOccupancy, holder: { name: string; surname: string }): Pax[] {
  const paxes: Pax[] = [];
  for (let roomId = 1; roomId <= rooms; roomId++) {
    for (let adult = 0; adult < guests.adults; adult++) paxes.push({ roomId, type: 'AD', name: holder.name, surname: holder.surname });
    for (const age of guests.children_ages) paxes.push({ roomId, type: 'CH', age, name: holder.name, surname: holder.surname });
  }
  return paxes;
}

const STATUSES: Record<BookingStatus, VendorBookingSummary['status']> = {
  CONFIRMED: 'confirmed',
  NEW: 'pending',
  PRECONFIRMED: 'pending',
  TO_BE_UPDATED: 'pending',
  TO_BE_CANCELLED: 'cancelled',
  CANCELLED: 'cancelled',
};

function statusOf(booking: Booking): VendorBookingSummary['status'] {
  return STATUSES[booking.status] ?? 'pending';
}

function answerOf(booking: Booking): SupplierBooking {
  return { reference: booking.reference, status: statusOf(booking) };
}

/** A booking of the list as reconciliation reads it; one without its creation day is placed on the first day asked (the vendor listed it among them). */
function summaryOf(booking: Booking, firstDay: string): VendorBookingSummary {
  const currency = booking.currency ?? booking.hotel?.currency;
  return {
    reference: booking.reference,
    clientReference: booking.clientReference ?? null,
    status: statusOf(booking),
    createdOn: booking.creationDate ?? firstDay,
    ...(booking.totalNet !== undefined && { net: booking.totalNet }),
    ...(currency && { currency }),
  };
}

/** A cancelled booking's answer with what cancelling cost (the hotel's `cancellationAmount`, in the booking's currency). */
function withCharge(booking: Booking): SupplierBooking {
  const answer = answerOf(booking);
  const amount = booking.hotel?.cancellationAmount;
  const currency = booking.currency ?? booking.hotel?.currency;
  if (answer.status !== 'cancelled' || amount === undefined || !currency || !/^\d{1,15}(\.\d{1,3})?$/.test(amount)) return answer;
  return { ...answer, cancellationCharge: { amount, currency } };
}

/** A refusal is the booking's failure; anything else passes on as it is (the outcome may be unknown: a retry asks first). */
function refusalOf(error: unknown, vendorName: string): unknown {
  if (!(error instanceof HotelbedsError)) return error;
  if (error.kind === 'refused' && error.code === 'RATE_NOT_AVAILABLE') return new DomainError('RATE_NOT_AVAILABLE', `rate not available: ${vendorName} no longer has it`);
  if (error.kind === 'refused' || (error.kind === 'invalid' && !error.outcomeUnknown)) {
    return new DomainError('SUPPLIER_ERROR', `${vendorName} refused: ${error.vendorMessage ?? error.message}`);
  }
  return error;
}

function unavailableError(error: unknown, vendorName: string): unknown {
  if (error instanceof HotelbedsError && error.kind !== 'invalid') {
    return new DomainError('SERVICE_UNAVAILABLE', `${vendorName} did not answer; retry shortly`, undefined, Math.max(1, Math.ceil((error.retryAfterMs ?? 5000) / 1000)));
  }
  if (error instanceof HotelbedsError) return new DomainError('SUPPLIER_ERROR', `${vendorName} refused the request: ${error.vendorMessage ?? error.message}`);
  return error;
}

function isoDay(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}
