import { milliToDecimal, toMilli } from '@hotel/contracts';
import type { PaymentType, Rate, RateType } from '@hotel/hotelbeds';
import { VENDORS, listOffers, priceOffer, unit, type Hotel, type OfferKey, type Stay, type Vendor, type VendorCode } from '../inventory/simulated-inventory';
import { BOARD_NAMES, hotelCodeOf, roomCodeParts } from '../inventory/vendor-codes';
import type { Occupancy, RateTerms } from './rate-key';

/** About this share of rates come as RECHECK (CheckRate before booking), fixed per rate. */
const RECHECK_SHARE = 0.3;

/**
 * How many price steps (15 minutes each) a BOOKABLE key, or one CheckRate issued, is
 * booked at its own price: 3 hours. Past that the rate must be searched again.
 */
export const RATE_KEY_VALID_EPOCHS = 12;

/** An amount as the vendor writes it: a decimal string with two decimals (the three currencies have two). */
export const amountText = (milli: number) => milliToDecimal(milli, 2);

/** One rate of one occupancy, priced exactly (thousandths of the vendor's currency). */
export interface PricedRate {
  terms: RateTerms;
  rateType: RateType;
  paymentType: PaymentType;
  currency: string;
  netMilli: number;
  /** Taxes included in the net. */
  taxesMilli: number;
  /** Fees the guest pays at the hotel (resort fees), not in the net. */
  dueAtHotelMilli: number;
  /** From when cancelling costs how much, ascending. */
  policies: { amountMilli: number; from: string }[];
  /** The loyalty programme a member rate is for. */
  loyaltyProgramme: string | null;
}

export function vendorOf(code: VendorCode): Vendor {
  return VENDORS[code];
}

/** The vendor's payment type: paid to the vendor's account (AT_WEB), or by card at the hotel (AT_HOTEL). */
export function paymentTypeOf(vendor: Vendor): PaymentType {
  return vendor.paymentType === 'credit_card' ? 'AT_HOTEL' : 'AT_WEB';
}

export function stayOf(checkIn: string, checkOut: string, occupancy: Occupancy): Stay {
  const room = { adults: occupancy.adults, children: occupancy.children, children_ages: occupancy.childAges };
  return { check_in: checkIn, check_out: checkOut, rooms: Array.from({ length: occupancy.rooms }, () => ({ ...room, children_ages: [...room.children_ages] })) };
}

function offerKeyOf(terms: RateTerms, hotel: Hotel): OfferKey {
  return { vendor: terms.vendor, hotelId: hotel.id, roomId: terms.roomId, board: terms.board, refundable: terms.refundable, memberRate: terms.memberRate };
}

/** Whether a rate asks for CheckRate first: fixed per vendor, hotel, room, board and terms. */
export function rateTypeOf(terms: Pick<RateTerms, 'vendor' | 'hotelCode' | 'roomId' | 'board' | 'refundable' | 'memberRate'>): RateType {
  const roll = unit(terms.vendor, terms.hotelCode, terms.roomId, terms.board, terms.refundable ? 'R' : 'N', terms.memberRate ? 'M' : '-', 'recheck');
  return roll < RECHECK_SHARE ? 'RECHECK' : 'BOOKABLE';
}

/** An ISO instant as the vendor writes a policy's start: to the second, with an offset (`2027-06-13T12:00:00+00:00`). */
function policyTime(instant: string): string {
  return `${instant.slice(0, 19)}+00:00`;
}

/** Prices a rate in a price step; `now` starts a non-refundable rate's penalty. */
export function priceRate(hotel: Hotel, terms: RateTerms, now: number): PricedRate {
  const vendor = vendorOf(terms.vendor);
  const stay = stayOf(terms.checkIn, terms.checkOut, terms.occupancy);
  const price = priceOffer(hotel, offerKeyOf(terms, hotel), stay, { epoch: terms.epoch, issuedAt: new Date(now) });
  // priceOffer answers amounts as numbers holding whole cents; toMilli reads them back exactly.
  return {
    terms,
    rateType: rateTypeOf(terms),
    paymentType: paymentTypeOf(vendor),
    currency: price.price_currency,
    netMilli: toMilli(price.price_chargeable),
    taxesMilli: toMilli(price.price_fees),
    dueAtHotelMilli: toMilli(price.price_due_at_hotel),
    policies: price.cancellation_policy_data.map((period) => ({ amountMilli: toMilli(period.price_cancellation_penalty), from: policyTime(period.from_datetime) })),
    loyaltyProgramme: terms.memberRate ? price.brand_loyalty_name : null,
  };
}

/**
 * The rates a vendor offers at a hotel for one occupancy and stay, priced in `epoch`:
 * what today's search offers (listOffers), member rates included, less the room types in
 * `soldOut` (`vendor:hotel:room`).
 */
export function offeredRates(hotel: Hotel, vendor: Vendor, checkIn: string, checkOut: string, occupancy: Occupancy, soldOut: ReadonlySet<string>, epoch: number, now: number): PricedRate[] {
  const stay = stayOf(checkIn, checkOut, occupancy);
  return listOffers(hotel, vendor, stay, { soldOut, includeMemberRates: true }).map((key) =>
    priceRate(
      hotel,
      {
        vendor: vendor.code,
        hotelCode: hotelCodeOf(hotel),
        roomId: key.roomId,
        board: key.board,
        refundable: key.refundable,
        memberRate: key.memberRate,
        checkIn,
        checkOut,
        occupancy,
        epoch,
        checked: false,
      },
      now,
    ),
  );
}

/** Whether the vendor still offers the rate for its stay (closed nights aside from allotment, which the caller checks). */
export function isOffered(hotel: Hotel, terms: RateTerms): boolean {
  const stay = stayOf(terms.checkIn, terms.checkOut, terms.occupancy);
  return listOffers(hotel, vendorOf(terms.vendor), stay, { soldOut: new Set(), includeMemberRates: true }).some(
    (key) => key.roomId === terms.roomId && key.board === terms.board && key.refundable === terms.refundable && key.memberRate === terms.memberRate,
  );
}

/** The cancellation charge at `now`: the last policy already started, nothing before the first. */
export function cancellationChargeMilli(policies: readonly { amountMilli: number; from: string }[], now: number): number {
  let charge = 0;
  for (const policy of policies) if (Date.parse(policy.from) <= now) charge = Math.max(charge, policy.amountMilli);
  return charge;
}

/** A rate as the vendor writes it in availability, CheckRate and bookings. */
export function wireRate(priced: PricedRate, options: { rateKey?: string; rateType?: RateType; allotment?: number }): Rate {
  const { terms, currency } = priced;
  const taxes: NonNullable<Rate['taxes']>['taxes'] = [{ included: true, amount: amountText(priced.taxesMilli), currency, type: 'TAX' }];
  if (priced.dueAtHotelMilli > 0) taxes.push({ included: false, amount: amountText(priced.dueAtHotelMilli), currency, type: 'FEE' });
  const comments: string[] = [];
  if (priced.loyaltyProgramme) comments.push(`Member rate: for members of ${priced.loyaltyProgramme} only.`);
  if (priced.dueAtHotelMilli > 0) comments.push(`Estimated total amount of taxes & fees for this booking: ${amountText(priced.dueAtHotelMilli)} ${currency} payable on arrival.`);
  return {
    ...(options.rateKey !== undefined && { rateKey: options.rateKey }),
    rateClass: terms.refundable ? 'NOR' : 'NRF',
    ...(options.rateType !== undefined && { rateType: options.rateType }),
    net: amountText(priced.netMilli),
    ...(options.allotment !== undefined && { allotment: options.allotment }),
    ...(comments.length > 0 && { rateComments: comments.join(' ') }),
    paymentType: priced.paymentType,
    packaging: false,
    boardCode: terms.board,
    boardName: BOARD_NAMES[terms.board],
    cancellationPolicies: priced.policies.map((policy) => ({ amount: amountText(policy.amountMilli), from: policy.from })),
    taxes: { taxes, allIncluded: priced.dueAtHotelMilli === 0 },
    rooms: terms.occupancy.rooms,
    adults: terms.occupancy.adults,
    children: terms.occupancy.children,
    ...(terms.occupancy.childAges.length > 0 && { childrenAges: terms.occupancy.childAges.join(',') }),
    ...(priced.loyaltyProgramme && { promotions: [{ code: 'MEMBER', name: `${priced.loyaltyProgramme} member rate` }] }),
  };
}

export function roomNameOf(roomId: number): string {
  return roomCodeParts({ roomId }).name;
}
