import { LRUCache } from 'lru-cache';
import {
  Board,
  CancellationPolicyData,
  HotelRate,
  HotelRateElite,
  HotelRateFee,
  HotelRateRoom,
  RoomRequest,
  parseDay,
} from '@hotel/contracts';
import { Hotel, OfferKey, PricingContext, RoomType, SeededRandom, Stay, between, hash32, isImportedHotelId, mix32, roomDataOf, unit } from '@hotel/inventory';
import { VENDORS, VENDOR_CODES, Vendor, VendorCode } from './vendors';

// The simulated vendors' own rules: what each offers where (coverage, closed nights, room
// types, boards, refund terms, member rates), at what price, and how many rooms it holds a
// night. The platform knows none of it: it reads their answers over the wire.

const TAX_RATE = 0.12;
const RETAIL_MARKUP = 1.18;
const DAY_MS = 86_400_000;
const BOARD_CENTS_PER_GUEST: Record<Board, number> = { RO: 0, BB: 1200, HB: 3000, FB: 4500, AI: 7000 };

export function soldOutKey(vendor: string, hotelId: number, roomId: number): string {
  return `${vendor}:${hotelId}:${roomId}`;
}

/** Rooms of one type a vendor can sell at a hotel per night (its allotment). */
export function allotmentCapacity(vendor: string, hotelId: number, roomId: number): number {
  return between(2, 8, vendor, hotelId, roomId, 'allotment');
}

interface Night {
  date: string;
  /** Days since 1970-01-01. */
  dayNumber: number;
  month: number;
  weekday: number;
}

const nightsCache = new LRUCache<string, Night[]>({ max: 1000 });

/** The nights of a stay (memoised: every hotel of a search asks for the same ones). */
function nightsOf(stay: Pick<Stay, 'check_in' | 'check_out'>): Night[] {
  const cacheKey = `${stay.check_in}/${stay.check_out}`;
  let nights = nightsCache.get(cacheKey);
  if (!nights) {
    nights = [];
    const end = parseDay(stay.check_out)!.getTime();
    for (let time = parseDay(stay.check_in)!.getTime(); time < end; time += DAY_MS) {
      const date = new Date(time);
      nights.push({ date: date.toISOString().slice(0, 10), dayNumber: time / DAY_MS, month: date.getUTCMonth(), weekday: date.getUTCDay() });
    }
    nightsCache.set(cacheKey, nights);
  }
  return nights;
}

const VENDOR_SEEDS = Object.fromEntries(VENDOR_CODES.map((code) => [code, hash32(code, 'vendor')])) as Record<VendorCode, number>;

/** One seeded stream per vendor and hotel: what the vendor carries and offers there. */
function vendorHotelRandom(vendor: Vendor, hotelId: number): SeededRandom {
  return new SeededRandom(mix32(VENDOR_SEEDS[vendor.code], hotelId));
}

/**
 * Whether a vendor carries a hotel at all: the first draw of the stream listOffers draws
 * from, so listOffers offers nothing at a hotel the vendor does not carry.
 */
export function vendorCarries(vendor: Vendor, hotelId: number): boolean {
  // A hotel a vendor's content added is that vendor's: the simulated vendors carry only the generated catalog.
  return !isImportedHotelId(hotelId) && vendorHotelRandom(vendor, hotelId).next() < vendor.coverage;
}

function fits(room: RoomType, request: RoomRequest): boolean {
  return request.adults <= room.maxAdults && request.children <= room.maxChildren && request.adults + request.children <= room.maxOccupancy;
}

/**
 * The offers a vendor makes for a hotel and stay: a few room types that fit
 * every requested room, one board each, refundable and often non-refundable,
 * plus member rates for loyalty programmes. Nights a vendor has closed and
 * room types whose allotment is used up (soldOut) offer nothing.
 */
export function listOffers(
  hotel: Hotel,
  vendor: Vendor,
  stay: Stay,
  options: { soldOut: ReadonlySet<string>; includeMemberRates: boolean },
): OfferKey[] {
  if (isImportedHotelId(hotel.id)) return [];
  const random = vendorHotelRandom(vendor, hotel.id);
  if (random.next() >= vendor.coverage) return [];
  const seed = mix32(VENDOR_SEEDS[vendor.code], hotel.id);
  // A vendor closes about one night in 25 at a hotel.
  if (nightsOf(stay).some((night) => mix32(seed, night.dayNumber) / 0x1_0000_0000 < 0.04)) return [];
  const offeredCount = random.between(1, 2);
  const ranked = hotel.roomTypes.map((room) => ({ room, board: random.pick(vendor.boards), nonRefundable: random.next() < vendor.nonRefundableShare, order: random.next() }));
  const offered = ranked
    .filter(({ room }) => stay.rooms.every((request) => fits(room, request)))
    .sort((a, b) => a.order - b.order)
    .slice(0, offeredCount)
    .sort((a, b) => a.room.roomId - b.room.roomId);
  const keys: OfferKey[] = [];
  for (const { room, board, nonRefundable } of offered) {
    if (options.soldOut.has(soldOutKey(vendor.code, hotel.id, room.roomId))) continue;
    const base = { vendor: vendor.code, hotelId: hotel.id, roomId: room.roomId, board, memberRate: false };
    keys.push({ ...base, refundable: true });
    if (nonRefundable) keys.push({ ...base, refundable: false });
    if (options.includeMemberRates && vendor.loyaltyRates && hotel.chain) keys.push({ ...base, refundable: true, memberRate: true });
  }
  return keys;
}

/** Season and weekday: summer and weekends cost more; the southern hemisphere's summer is December. */
function nightFactor(hotel: Hotel, night: Night): number {
  const month = night.month;
  const summer = hotel.lat >= 0 ? [5, 6, 7] : [11, 0, 1];
  const shoulder = hotel.lat >= 0 ? [4, 8] : [10, 2];
  const season = summer.includes(month) ? 1.25 : shoulder.includes(month) ? 1.1 : month === 11 || month === 0 ? 1.05 : 0.92;
  const weekday = night.weekday;
  const weekend = weekday === 5 || weekday === 6 ? (hotel.type === 'resort' ? 1.2 : 1.12) : 1;
  return season * weekend;
}

function occupancyFactor(request: RoomRequest): number {
  return 1 + Math.max(0, request.adults - 2) * 0.25 + request.children * 0.1 - (request.adults === 1 && request.children === 0 ? 0.1 : 0);
}

function driftFactor(vendor: string, hotelId: number, epoch: number): number {
  const roll = unit(vendor, hotelId, epoch, 'drift');
  return roll < 0.05 ? 0.97 : roll < 0.1 ? 1.04 : 1;
}

const cents = (value: number) => Math.round(value);
const money = (centsValue: number) => centsValue / 100;
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

function eliteFor(hotel: Hotel, vendor: Vendor): HotelRateElite {
  const creditCents = local(vendor, hotel.stars >= 5 ? 10000 : 5000);
  return {
    room_upgrade_guaranteed: hotel.stars >= 5,
    room_upgrade_subject_availability: hotel.stars < 5,
    late_checkout_guaranteed: false,
    late_checkout_subject_availability: true,
    welcome_amenity: true,
    breakfast_included: true,
    travel_agent: true,
    description: ['Daily breakfast for two', 'A property credit once per stay', 'Upgrade on arrival, subject to availability'],
    price_property_credit: money(creditCents),
    price_property_credit_currency: vendor.currency,
    property_credit_description: 'Credit for food and beverage, once per stay',
    breakfast_description: 'Full breakfast for up to two guests daily',
    breakfast_pax: 2,
  };
}

/** One requested room's price in integer cents. */
interface RoomPrice {
  request: RoomRequest;
  chargeablePerNight: number[];
  beforeFees: number;
  taxes: number;
  chargeable: number;
  dueAtHotel: number;
}

function rateRoom(hotel: Hotel, vendor: Vendor, room: RoomType, board: Board, price: RoomPrice): HotelRateRoom {
  const currency = vendor.currency;
  const fees: HotelRateFee[] = [{ name: 'Taxes and service charges', price: money(price.taxes), due_at_hotel: false, price_currency: currency }];
  if (price.dueAtHotel > 0) fees.push({ name: 'Resort fee', price: money(price.dueAtHotel), due_at_hotel: true, price_currency: currency });
  const depositCents = hotel.type === 'apartment' || hotel.type === 'aparthotel' ? local(vendor, 2500) : 0;
  return {
    name: room.name,
    board,
    room_data: roomDataOf(room),
    price_per_night_avg: money(Math.round(price.chargeable / price.chargeablePerNight.length)),
    price_per_night: price.chargeablePerNight.map(money),
    price_chargeable: money(price.chargeable),
    price_per_room: money(price.chargeable),
    price_before_fees: money(price.beforeFees),
    price_fees: money(price.taxes),
    price_due_at_hotel: money(price.dueAtHotel),
    price_inclusive: money(price.chargeable + price.dueAtHotel),
    price_currency: currency,
    fees,
    deposit_per_accomodation_per_night: money(depositCents),
    deposit_currency: currency,
    adults: price.request.adults,
    children: price.request.children,
    children_ages: price.request.children_ages,
  };
}

/** A reference price in US cents at the vendor's price level, in its currency's cents. */
function local(vendor: Vendor, usdCents: number): number {
  return Math.round(usdCents * vendor.unitsPerUsd);
}

/**
 * Prices an offer for a stay in the vendor's currency, exactly (integer cents: the
 * built-in vendors' currencies have two decimals): per room and night the room's net
 * price by season, weekday, occupancy, vendor markup and refund terms, plus board per
 * guest; 12% taxes included in the chargeable price; resort fees due at the hotel on
 * top. The platform converts it into each client's currency (convertRate).
 */
export function priceOffer(hotel: Hotel, key: OfferKey, stay: Stay, context: PricingContext): Omit<HotelRate, 'id'> {
  const vendor = VENDORS[key.vendor as VendorCode];
  const room = hotel.roomTypes.find((candidate) => candidate.roomId === key.roomId);
  if (!room) throw new Error(`hotel ${hotel.id} has no room type ${key.roomId}`);
  const nights = nightsOf(stay);
  const drift = driftFactor(key.vendor, hotel.id, context.epoch);
  const termsFactor = (key.refundable ? 1 : vendor.nonRefundableDiscount) * (key.memberRate ? 0.93 : 1);

  const totals: RoomPrice[] = stay.rooms.map((request) => {
    const beforeFeesPerNight = nights.map((night) =>
      cents(
        hotel.baseNightCents * vendor.unitsPerUsd * room.priceFactor * nightFactor(hotel, night) * occupancyFactor(request) * vendor.markup * termsFactor * drift +
          local(vendor, BOARD_CENTS_PER_GUEST[key.board]) * (request.adults + request.children),
      ),
    );
    const taxesPerNight = beforeFeesPerNight.map((value) => cents(value * TAX_RATE));
    const beforeFees = sum(beforeFeesPerNight);
    const taxes = sum(taxesPerNight);
    return {
      request,
      chargeablePerNight: beforeFeesPerNight.map((value, i) => value + taxesPerNight[i]),
      beforeFees,
      taxes,
      chargeable: beforeFees + taxes,
      dueAtHotel: local(vendor, vendor.resortFeeCents) * nights.length,
    };
  });
  const rooms = totals.map((price) => rateRoom(hotel, vendor, room, key.board, price));
  const perNight = nights.map((_, i) => sum(totals.map((total) => total.chargeablePerNight[i])));
  const chargeable = sum(totals.map((total) => total.chargeable));
  const beforeFees = sum(totals.map((total) => total.beforeFees));
  const taxes = sum(totals.map((total) => total.taxes));
  const dueAtHotel = sum(totals.map((total) => total.dueAtHotel));

  const checkIn = parseDay(stay.check_in)!.getTime();
  let policyDatetime: string;
  let penalties: CancellationPolicyData[];
  if (key.refundable) {
    const deadline = new Date(checkIn - vendor.freeCancellationDays * DAY_MS + 12 * 3600_000);
    const lastDay = new Date(checkIn - DAY_MS + 12 * 3600_000);
    policyDatetime = deadline.toISOString();
    penalties = [
      { from_datetime: deadline.toISOString(), price_cancellation_penalty: money(perNight[0]), price_currency: vendor.currency },
      { from_datetime: lastDay.toISOString(), price_cancellation_penalty: money(chargeable), price_currency: vendor.currency },
    ].filter((period, index, all) => index === 0 || period.from_datetime > all[index - 1].from_datetime);
  } else {
    policyDatetime = context.issuedAt.toISOString();
    penalties = [{ from_datetime: context.issuedAt.toISOString(), price_cancellation_penalty: money(chargeable), price_currency: vendor.currency }];
  }

  const loyaltyEligible = vendor.loyaltyRates && hotel.chain !== null;
  return {
    hotel_id: hotel.id,
    rooms,
    price_per_night_avg: money(Math.round(chargeable / nights.length)),
    price_per_night: perNight.map(money),
    price_chargeable: money(chargeable),
    price_per_room: totals.map((total) => money(total.chargeable)),
    price_per_night_per_room: nights.map((_, i) => totals.map((total) => money(total.chargeablePerNight[i]))),
    price_before_fees: money(beforeFees),
    price_fees: money(taxes),
    price_due_at_hotel: money(dueAtHotel),
    price_inclusive: money(chargeable + dueAtHotel),
    price_currency: vendor.currency,
    price_retail: money(cents(chargeable * RETAIL_MARKUP)),
    cancellation_policy: key.refundable ? 'Refundable' : 'NonRefundable',
    cancellation_policy_datetime: policyDatetime,
    cancellation_policy_data: penalties,
    brand_loyalty_eligible: loyaltyEligible,
    brand_loyalty_required: key.memberRate,
    brand_loyalty_name: loyaltyEligible ? `${hotel.chain} Rewards` : null,
    elite: vendor.eliteRates && hotel.stars >= 4 && key.refundable ? eliteFor(hotel, vendor) : null,
    price_commission: money(cents(beforeFees * vendor.commissionRate)),
    price_commission_currency: vendor.currency,
    payment_type: vendor.paymentType,
  };
}

