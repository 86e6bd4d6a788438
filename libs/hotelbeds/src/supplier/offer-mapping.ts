import { BOARDS, Board, CancellationPolicyData, HotelRate, HotelRateRoom, milliPerMinorUnit, milliToDecimal, milliToNumber, nightsBetween, roundToCurrency, toMilli } from '@hotel/contracts';
import { Hotel as CatalogHotel, OfferKey, Stay, SupplierOffer, VendorOccupancy, roomDataOf, roomIdOfCode } from '@hotel/inventory';
import type { AvailabilityRQ, Hotel as WireHotel, Occupancy, Rate, Room as WireRoom } from '../wire';

/**
 * Between the platform's offers and Hotelbeds' availability and CheckRate answers: which
 * occupancies to ask for, and each answered rate as the platform's priced offer. Pure.
 *
 * The rules, where the vendor's documentation leaves a choice:
 * - identical requested rooms are asked as one occupancy (`rooms: n`), with `adults` and
 *   `children` per room and a CH pax for each child of each room;
 * - an offer is one room type (room code), board and refund class for every occupancy: a rate
 *   of each, the cheapest where several (contracts) answer; their nets add up;
 * - a rate with the promotion `MEMBER` is a loyalty programme's member rate (named by the
 *   promotion, `<programme> member rate`), an offer of its own;
 * - a hotel code is the platform's hotel id, and a room code is matched to the catalog's room
 *   type by the shared room-code table; a room no catalog room type has, or a board the
 *   platform does not sell, is left out;
 * - `net` is what the platform pays for all rooms of the rate for the whole stay; taxes marked
 *   `included` are part of it, the others are due at the hotel; amounts in another currency
 *   than the hotel's are left out.
 */

/** The requested rooms as occupancies, and for each room which occupancy and which of its rooms it is. */
export function occupanciesOf(stay: Stay): { occupancies: VendorOccupancy[]; roomOf: { group: number; index: number }[] } {
  const occupancies: VendorOccupancy[] = [];
  const byShape = new Map<string, number>();
  const roomOf = stay.rooms.map((room) => {
    const shape = `${room.adults}|${room.children}|${room.children_ages.join(',')}`;
    let group = byShape.get(shape);
    if (group === undefined) {
      group = occupancies.length;
      byShape.set(shape, group);
      occupancies.push({ rooms: 0, guests: { adults: room.adults, children: room.children, children_ages: [...room.children_ages] } });
    }
    return { group, index: occupancies[group].rooms++ };
  });
  return { occupancies, roomOf };
}

export function wireOccupancy({ rooms, guests }: VendorOccupancy): Occupancy {
  const paxes = Array.from({ length: rooms }, () => guests.children_ages.map((age) => ({ type: 'CH' as const, age }))).flat();
  return { rooms, adults: guests.adults, children: guests.children, ...(paxes.length > 0 && { paxes }) };
}

export function availabilityRequest(hotelCodes: number[], stay: Stay): AvailabilityRQ {
  return {
    stay: { checkIn: stay.check_in, checkOut: stay.check_out },
    occupancies: occupanciesOf(stay).occupancies.map(wireOccupancy),
    hotels: { hotel: hotelCodes },
  };
}

/** A rate answered for an occupancy: the one whose rooms, adults and children it names. */
function isFor(rate: Rate, { rooms, guests }: VendorOccupancy): boolean {
  return (rate.rooms ?? rooms) === rooms && (rate.adults ?? guests.adults) === guests.adults && (rate.children ?? guests.children) === guests.children;
}

const isBoard = (code: string | undefined): code is Board => (BOARDS as readonly string[]).includes(code ?? '');

/**
 * One hotel's offers from its availability answer. `now` starts a non-refundable rate's
 * penalty where the vendor gives no date.
 */
export function offersOfHotel(vendorCode: string, hotel: CatalogHotel, answer: WireHotel, stay: Stay, now: Date, includeMemberRates = true): SupplierOffer[] {
  const { occupancies } = occupanciesOf(stay);
  const currency = answer.currency;
  if (!currency) return [];
  // room type, board and class → the cheapest rate per occupancy
  const candidates = new Map<string, { room: WireRoom; roomId: number; board: Board; refundable: boolean; member: boolean; rates: (Rate | undefined)[] }>();
  for (const room of answer.rooms ?? []) {
    const roomId = room.code ? roomIdOfCode(room.code) : undefined;
    if (roomId === undefined || !hotel.roomTypes.some((type) => type.roomId === roomId)) continue;
    for (const rate of room.rates ?? []) {
      if (!rate.rateKey || !rate.net || !isBoard(rate.boardCode)) continue;
      const refundable = rate.rateClass !== 'NRF';
      const member = memberProgramme(rate) !== null;
      if (member && !includeMemberRates) continue;
      const key = `${roomId}|${rate.boardCode}|${refundable}|${member}`;
      let candidate = candidates.get(key);
      if (!candidate) {
        candidate = { room, roomId, board: rate.boardCode, refundable, member, rates: occupancies.map(() => undefined) };
        candidates.set(key, candidate);
      }
      occupancies.forEach((occupancy, group) => {
        const held = candidate!.rates[group];
        if (isFor(rate, occupancy) && (!held || toMilli(rate.net!) < toMilli(held.net!))) candidate!.rates[group] = rate;
      });
    }
  }
  const offers: SupplierOffer[] = [];
  for (const candidate of candidates.values()) {
    if (candidate.rates.some((rate) => rate === undefined)) continue;
    const rates = candidate.rates as Rate[];
    const key: OfferKey = {
      vendor: vendorCode,
      hotelId: hotel.id,
      roomId: candidate.roomId,
      board: candidate.board,
      refundable: candidate.refundable,
      memberRate: candidate.member,
      vendorRate: {
        keys: rates.map((rate) => rate.rateKey!),
        occupancies,
        recheck: rates.some((rate) => rate.rateType === 'RECHECK'),
        net: milliToDecimal(rates.reduce((sum, rate) => sum + toMilli(rate.net!), 0), 3),
        currency,
        hotelCode: answer.code,
      },
    };
    offers.push({ key, rate: priceOf(hotel, key, candidate.room.name, rates, stay, currency, now) });
  }
  return offers.sort((a, b) => a.key.roomId - b.key.roomId || toMilli(a.rate.price_chargeable) - toMilli(b.rate.price_chargeable));
}

const MEMBER_SUFFIX = / member rate$/;

/** The loyalty programme of a member rate (promotion MEMBER), or null. */
function memberProgramme(rate: Rate): string | null {
  const promotion = rate.promotions?.find((candidate) => candidate.code === 'MEMBER');
  return promotion ? (promotion.name ?? 'Member').replace(MEMBER_SUFFIX, '') : null;
}

/**
 * The offer again from a CheckRate answer (its rates in the order of the keys asked): with
 * the keys it gave (BOOKABLE ones, to book with), its price and its terms. Null when the
 * answer does not hold a rate for every key.
 */
export function recheckedOffer(hotel: CatalogHotel, asked: OfferKey, answer: WireHotel, stay: Stay, now: Date): SupplierOffer | null {
  const vendorRate = asked.vendorRate!;
  const rates = (answer.rooms ?? []).flatMap((room) => (room.rates ?? []).map((rate) => ({ room, rate })));
  const currency = answer.currency ?? vendorRate.currency;
  if (rates.length !== vendorRate.keys.length || rates.some(({ rate }) => !rate.net)) return null;
  const key: OfferKey = {
    ...asked,
    vendorRate: {
      keys: rates.map(({ rate }, index) => rate.rateKey ?? vendorRate.keys[index]),
      occupancies: vendorRate.occupancies,
      recheck: false,
      net: milliToDecimal(rates.reduce((sum, { rate }) => sum + toMilli(rate.net!), 0), 3),
      currency,
      ...(vendorRate.hotelCode !== undefined && { hotelCode: vendorRate.hotelCode }),
    },
  };
  return { key, rate: priceOf(hotel, key, rates[0].room.name, rates.map(({ rate }) => rate), stay, currency, now) };
}

/** `total` in `parts` shares of whole minor units that add up to it exactly (the first ones take the remainder). */
export function splitExactly(total: number, parts: number, currency: string): number[] {
  const unit = milliPerMinorUnit(currency);
  const units = Math.round(total / unit);
  const base = Math.floor(units / parts);
  const shares = Array.from({ length: parts }, (_, index) => (base + (index < units - base * parts ? 1 : 0)) * unit);
  // A total that is not in whole minor units keeps its residue in the first share.
  shares[0] += total - units * unit;
  return shares;
}

function taxesOf(rate: Rate, currency: string): { included: number; dueAtHotel: number } {
  let included = 0;
  let dueAtHotel = 0;
  for (const tax of rate.taxes?.taxes ?? []) {
    if (!tax.amount || (tax.currency && tax.currency !== currency)) continue;
    if (tax.included === false) dueAtHotel += toMilli(tax.amount);
    else included += toMilli(tax.amount);
  }
  return { included, dueAtHotel };
}

/** The charge at each time any occupancy's charge changes: the sum of what each would charge then. */
function cancellationTimeline(rates: Rate[], currency: string): CancellationPolicyData[] {
  const policies = rates.map((rate) => (rate.cancellationPolicies ?? []).filter((policy) => policy.amount && policy.from && !Number.isNaN(Date.parse(policy.from))));
  const times = [...new Set(policies.flat().map((policy) => Date.parse(policy.from)))].sort((a, b) => a - b);
  const chargeAt = (time: number) =>
    policies.reduce((sum, list) => sum + list.reduce((charge, policy) => (Date.parse(policy.from) <= time ? Math.max(charge, toMilli(policy.amount)) : charge), 0), 0);
  return times.map((time) => ({ from_datetime: new Date(time).toISOString(), price_cancellation_penalty: milliToNumber(chargeAt(time)), price_currency: currency }));
}

function priceOf(hotel: CatalogHotel, key: OfferKey, roomName: string | undefined, rates: Rate[], stay: Stay, currency: string, now: Date): Omit<HotelRate, 'id'> {
  const { occupancies, roomOf } = occupanciesOf(stay);
  const nights = nightsBetween(stay.check_in, stay.check_out);
  const roomType = hotel.roomTypes.find((type) => type.roomId === key.roomId)!;
  // Each occupancy's net, taxes and fees split over its rooms.
  const shares = occupancies.map((occupancy, group) => {
    const rate = rates[group];
    const taxes = taxesOf(rate, currency);
    return {
      chargeable: splitExactly(toMilli(rate.net!), occupancy.rooms, currency),
      fees: splitExactly(taxes.included, occupancy.rooms, currency),
      dueAtHotel: splitExactly(taxes.dueAtHotel, occupancy.rooms, currency),
      retail: rate.sellingRate ? splitExactly(toMilli(rate.sellingRate), occupancy.rooms, currency) : null,
    };
  });
  const perRoom = roomOf.map(({ group, index }) => {
    const share = shares[group];
    const chargeable = share.chargeable[index];
    return { chargeable, fees: share.fees[index], dueAtHotel: share.dueAtHotel[index], retail: share.retail?.[index] ?? chargeable, perNight: splitExactly(chargeable, nights, currency) };
  });
  const rooms: HotelRateRoom[] = perRoom.map((room, index) => {
    const request = stay.rooms[index];
    const fees = [{ name: 'Taxes and service charges', price: milliToNumber(room.fees), due_at_hotel: false, price_currency: currency }];
    if (room.dueAtHotel > 0) fees.push({ name: 'Taxes and fees due at the hotel', price: milliToNumber(room.dueAtHotel), due_at_hotel: true, price_currency: currency });
    return {
      name: roomName ?? roomType.name,
      board: key.board,
      room_data: roomDataOf(roomType),
      price_per_night_avg: milliToNumber(roundToCurrency(Math.round(room.chargeable / nights), currency)),
      price_per_night: room.perNight.map(milliToNumber),
      price_chargeable: milliToNumber(room.chargeable),
      price_per_room: milliToNumber(room.chargeable),
      price_before_fees: milliToNumber(room.chargeable - room.fees),
      price_fees: milliToNumber(room.fees),
      price_due_at_hotel: milliToNumber(room.dueAtHotel),
      price_inclusive: milliToNumber(room.chargeable + room.dueAtHotel),
      price_currency: currency,
      fees,
      deposit_per_accomodation_per_night: 0,
      deposit_currency: currency,
      adults: request.adults,
      children: request.children,
      children_ages: request.children_ages,
    };
  });
  const total = (pick: (room: (typeof perRoom)[number]) => number) => perRoom.reduce((sum, room) => sum + pick(room), 0);
  const chargeable = total((room) => room.chargeable);
  const fees = total((room) => room.fees);
  const dueAtHotel = total((room) => room.dueAtHotel);
  const perNight = Array.from({ length: nights }, (_, night) => perRoom.reduce((sum, room) => sum + room.perNight[night], 0));
  const penalties = cancellationTimeline(rates, currency);
  const checkInNoon = `${stay.check_in}T12:00:00.000Z`;
  const programme = rates.map(memberProgramme).find((name) => name !== null) ?? null;
  return {
    hotel_id: hotel.id,
    rooms,
    price_per_night_avg: milliToNumber(roundToCurrency(Math.round(chargeable / nights), currency)),
    price_per_night: perNight.map(milliToNumber),
    price_chargeable: milliToNumber(chargeable),
    price_per_room: perRoom.map((room) => milliToNumber(room.chargeable)),
    price_per_night_per_room: perNight.map((_, night) => perRoom.map((room) => milliToNumber(room.perNight[night]))),
    price_before_fees: milliToNumber(chargeable - fees),
    price_fees: milliToNumber(fees),
    price_due_at_hotel: milliToNumber(dueAtHotel),
    price_inclusive: milliToNumber(chargeable + dueAtHotel),
    price_currency: currency,
    price_retail: milliToNumber(total((room) => room.retail)),
    cancellation_policy: key.refundable ? 'Refundable' : 'NonRefundable',
    // Refundable: free until the first charge (check-in where the vendor names none); non-refundable: charged from now.
    cancellation_policy_datetime: key.refundable ? (penalties[0]?.from_datetime ?? checkInNoon) : now.toISOString(),
    cancellation_policy_data: key.refundable
      ? penalties
      : [{ from_datetime: now.toISOString(), price_cancellation_penalty: milliToNumber(chargeable), price_currency: currency }],
    brand_loyalty_eligible: programme !== null,
    brand_loyalty_required: key.memberRate,
    brand_loyalty_name: programme,
    elite: null,
    // Net rates: the platform's margin is its own, the vendor pays no commission.
    price_commission: 0,
    price_commission_currency: currency,
    payment_type: rates.some((rate) => rate.paymentType === 'AT_HOTEL') ? 'credit_card' : 'account',
  };
}
