import { ISO_4217_DECIMALS } from '../common/currencies';
import { decimalToNumber, milliToDecimal, toMilli } from '../common/money';
import { BedType, Board, CancellationPolicyData, Coordinates, HotelDetails, HotelRate, HotelRateRoom, PaymentType } from './hotel';
import type { HotelRatesData } from './search-session';

/*
 * A hotel and its rates in the services' words (camelCase, amounts as decimal strings in
 * their currency's decimals), as they travel on the bus; and their rendering in the booking API's
 * words (HotelDetails, HotelRate), which the gateway does. The vendors' adapters still
 * price in the API's shape (HotelRate without its id): `rateOf` takes that to these words
 * at the service's edge, until the adapters price in them.
 */

/** An amount (a decimal string) and its currency. */
export interface Money {
  amount: string;
  currency: string;
}

/** A room type's facts, as the catalog has them. */
export interface RoomFacts {
  roomId: number;
  images: string[];
  sizeSqft: number;
  sizeSqm: number;
  maxOccupancy: number;
  maxAdults: number;
  maxChildren: number;
  beds: BedType[];
  amenities: string[];
}

/** A charge on top of the room's price (a tax, a resort fee), paid with the booking or at the hotel. */
export interface RateFee {
  name: string;
  amount: string;
  currency: string;
  dueAtHotel: boolean;
}

/** What one room of a rate costs, in the rate's currency. */
export interface RoomPrices {
  perNightAvg: string;
  perNight: string[];
  chargeable: string;
  /** The room's part of the rate's chargeable price. */
  total: string;
  beforeFees: string;
  fees: string;
  dueAtHotel: string;
  inclusive: string;
}

/** One room of a rate: its type, board, guests and prices. */
export interface RateRoom {
  name: string;
  board: Board;
  facts: RoomFacts;
  currency: string;
  prices: RoomPrices;
  fees: RateFee[];
  /** The deposit the hotel holds per night, in its own currency. */
  depositPerNight: Money;
  adults: number;
  children: number;
  childAges: number[];
}

/** What the whole rate costs, in the rate's currency. */
export interface RatePrices {
  perNightAvg: string;
  perNight: string[];
  chargeable: string;
  perRoom: string[];
  perNightPerRoom: string[][];
  beforeFees: string;
  fees: string;
  dueAtHotel: string;
  inclusive: string;
  /** What the hotel sells the stay for to the public. */
  retail: string;
}

/** When cancelling is free, and what it costs from each moment on. */
export interface RateCancellation {
  refundable: boolean;
  /** Free cancellation until this moment (ISO 8601). */
  freeUntil: string;
  penalties: { from: string; amount: string; currency: string }[];
}

/** A luxury programme's benefits (an "elite" rate). */
export interface EliteBenefits {
  roomUpgradeGuaranteed: boolean;
  roomUpgradeSubjectToAvailability: boolean;
  lateCheckoutGuaranteed: boolean;
  lateCheckoutSubjectToAvailability: boolean;
  welcomeAmenity: boolean;
  breakfastIncluded: boolean;
  travelAgent: boolean;
  description: string[];
  propertyCredit: Money;
  propertyCreditDescription: string;
  breakfastDescription: string;
  breakfastGuests: number;
}

/** A rate a vendor offers for a stay, priced for the client. */
export interface Rate {
  id: string;
  hotelId: number;
  rooms: RateRoom[];
  currency: string;
  prices: RatePrices;
  cancellation: RateCancellation;
  brandLoyalty: { eligible: boolean; required: boolean; programme: string | null };
  elite: EliteBenefits | null;
  commission: Money;
  paymentType: PaymentType;
}

/** A hotel as the catalog describes it (in one language), without rates. */
export interface HotelProfile {
  id: number;
  name: string;
  stars: number;
  rating: number;
  reviewCount: number;
  minimumAge: number;
  amenities: string[];
  checkInFrom: string;
  checkInUntil: string;
  checkOutBefore: string;
  description: string;
  images: string[];
  coordinates: Coordinates;
  address: { street: string; city: string; country: string; postalCode: string; region: string };
  phone: string | null;
  email: string | null;
  type: string;
  exclusive: boolean;
}

/** search.hotel-rates.get.v3: a hotel of a V1 search and its rates, cheapest first. */
export interface HotelRates {
  hotel: HotelProfile;
  rates: Rate[];
  /** Every vendor answered for this hotel, or the search's window has passed. */
  completed: boolean;
}

// ------------------------------------------------------------ into the services' words

/** An amount as the API's JSON number has it, as a decimal string in its currency's decimals ("12.50", "1234" JPY): exact, never rounded. */
function inCurrency(currency: string): (amount: number) => string {
  // (Every amount of a rate is in the client's currency, one the platform takes; another is written with two decimals at least.)
  const decimals = ISO_4217_DECIMALS[currency] ?? 2;
  return (amount) => {
    // The common case, quickly: an amount in its currency's decimals is what toFixed writes (checked by reading it back;
    // beyond 15 digits toFixed may write an exponent).
    if (Math.abs(amount) < 1e12) {
      const text = amount.toFixed(decimals);
      if (Number(text) === amount) return text;
    }
    return milliToDecimal(toMilli(amount), decimals);
  };
}

function roomOf(room: HotelRateRoom): RateRoom {
  const data = room.room_data;
  const decimal = inCurrency(room.price_currency);
  return {
    name: room.name,
    board: room.board,
    facts: {
      roomId: data.room_id,
      images: data.images,
      sizeSqft: data.size_sqft,
      sizeSqm: data.size_sqm,
      maxOccupancy: data.max_occupancy,
      maxAdults: data.max_adults,
      maxChildren: data.max_children,
      beds: data.beds,
      amenities: data.amenities,
    },
    currency: room.price_currency,
    prices: {
      perNightAvg: decimal(room.price_per_night_avg),
      perNight: room.price_per_night.map(decimal),
      chargeable: decimal(room.price_chargeable),
      total: decimal(room.price_per_room),
      beforeFees: decimal(room.price_before_fees),
      fees: decimal(room.price_fees),
      dueAtHotel: decimal(room.price_due_at_hotel),
      inclusive: decimal(room.price_inclusive),
    },
    fees: room.fees.map((fee) => ({ name: fee.name, amount: inCurrency(fee.price_currency)(fee.price), currency: fee.price_currency, dueAtHotel: fee.due_at_hotel })),
    depositPerNight: { amount: inCurrency(room.deposit_currency)(room.deposit_per_accomodation_per_night), currency: room.deposit_currency },
    adults: room.adults,
    children: room.children,
    childAges: room.children_ages,
  };
}

/** A rate as the vendors' adapters price it (the API's shape), in the services' words. */
export function rateOf(rate: HotelRate): Rate {
  const elite = rate.elite;
  const decimal = inCurrency(rate.price_currency);
  return {
    id: rate.id,
    hotelId: rate.hotel_id,
    rooms: rate.rooms.map(roomOf),
    currency: rate.price_currency,
    prices: {
      perNightAvg: decimal(rate.price_per_night_avg),
      perNight: rate.price_per_night.map(decimal),
      chargeable: decimal(rate.price_chargeable),
      perRoom: rate.price_per_room.map(decimal),
      perNightPerRoom: rate.price_per_night_per_room.map((nights) => nights.map(decimal)),
      beforeFees: decimal(rate.price_before_fees),
      fees: decimal(rate.price_fees),
      dueAtHotel: decimal(rate.price_due_at_hotel),
      inclusive: decimal(rate.price_inclusive),
      retail: decimal(rate.price_retail),
    },
    cancellation: {
      refundable: rate.cancellation_policy === 'Refundable',
      freeUntil: rate.cancellation_policy_datetime,
      penalties: rate.cancellation_policy_data.map((penalty) => ({ from: penalty.from_datetime, amount: inCurrency(penalty.price_currency)(penalty.price_cancellation_penalty), currency: penalty.price_currency })),
    },
    brandLoyalty: { eligible: rate.brand_loyalty_eligible, required: rate.brand_loyalty_required, programme: rate.brand_loyalty_name },
    elite: elite && {
      roomUpgradeGuaranteed: elite.room_upgrade_guaranteed,
      roomUpgradeSubjectToAvailability: elite.room_upgrade_subject_availability,
      lateCheckoutGuaranteed: elite.late_checkout_guaranteed,
      lateCheckoutSubjectToAvailability: elite.late_checkout_subject_availability,
      welcomeAmenity: elite.welcome_amenity,
      breakfastIncluded: elite.breakfast_included,
      travelAgent: elite.travel_agent,
      description: elite.description,
      propertyCredit: { amount: inCurrency(elite.price_property_credit_currency)(elite.price_property_credit), currency: elite.price_property_credit_currency },
      propertyCreditDescription: elite.property_credit_description,
      breakfastDescription: elite.breakfast_description,
      breakfastGuests: elite.breakfast_pax,
    },
    commission: { amount: inCurrency(rate.price_commission_currency)(rate.price_commission), currency: rate.price_commission_currency },
    paymentType: rate.payment_type,
  };
}

/** A hotel as a prebook or booking stored it (the API's HotelDetails), in the services' words. */
export function hotelProfileOf(details: HotelDetails): HotelProfile {
  return {
    id: details.id,
    name: details.name,
    stars: details.stars,
    rating: details.rating,
    reviewCount: details.review_count,
    minimumAge: details.minimum_age,
    amenities: details.amenities,
    checkInFrom: details.check_in_begin_time,
    checkInUntil: details.check_in_end_time,
    checkOutBefore: details.check_out_before_time,
    description: details.description,
    images: details.images,
    coordinates: details.coordinates,
    address: { street: details.address.address, city: details.address.city, country: details.address.country, postalCode: details.address.postal_code, region: details.address.region },
    phone: details.phone,
    email: details.email,
    type: details.type,
    exclusive: details.exclusive,
  };
}

// ------------------------------------------------------------ into the booking API's words

const amount = decimalToNumber;

function roomAnswer(room: RateRoom): HotelRateRoom {
  const { facts, prices } = room;
  return {
    name: room.name,
    board: room.board,
    room_data: {
      images: facts.images,
      size_sqft: facts.sizeSqft,
      size_sqm: facts.sizeSqm,
      max_occupancy: facts.maxOccupancy,
      max_adults: facts.maxAdults,
      max_children: facts.maxChildren,
      beds: facts.beds,
      amenities: facts.amenities,
      room_id: facts.roomId,
    },
    price_per_night_avg: amount(prices.perNightAvg),
    price_per_night: prices.perNight.map(amount),
    price_chargeable: amount(prices.chargeable),
    price_per_room: amount(prices.total),
    price_before_fees: amount(prices.beforeFees),
    price_fees: amount(prices.fees),
    price_due_at_hotel: amount(prices.dueAtHotel),
    price_inclusive: amount(prices.inclusive),
    price_currency: room.currency,
    fees: room.fees.map((fee) => ({ name: fee.name, price: amount(fee.amount), due_at_hotel: fee.dueAtHotel, price_currency: fee.currency })),
    deposit_per_accomodation_per_night: amount(room.depositPerNight.amount),
    deposit_currency: room.depositPerNight.currency,
    adults: room.adults,
    children: room.children,
    children_ages: room.childAges,
  };
}

/** The booking API's HotelRate. */
export function rateAnswer(rate: Rate): HotelRate {
  const { prices, elite } = rate;
  return {
    id: rate.id,
    hotel_id: rate.hotelId,
    rooms: rate.rooms.map(roomAnswer),
    price_per_night_avg: amount(prices.perNightAvg),
    price_per_night: prices.perNight.map(amount),
    price_chargeable: amount(prices.chargeable),
    price_per_room: prices.perRoom.map(amount),
    price_per_night_per_room: prices.perNightPerRoom.map((nights) => nights.map(amount)),
    price_before_fees: amount(prices.beforeFees),
    price_fees: amount(prices.fees),
    price_due_at_hotel: amount(prices.dueAtHotel),
    price_inclusive: amount(prices.inclusive),
    price_currency: rate.currency,
    price_retail: amount(prices.retail),
    cancellation_policy: rate.cancellation.refundable ? 'Refundable' : 'NonRefundable',
    cancellation_policy_datetime: rate.cancellation.freeUntil,
    cancellation_policy_data: rate.cancellation.penalties.map(
      (penalty): CancellationPolicyData => ({ from_datetime: penalty.from, price_cancellation_penalty: amount(penalty.amount), price_currency: penalty.currency }),
    ),
    brand_loyalty_eligible: rate.brandLoyalty.eligible,
    brand_loyalty_required: rate.brandLoyalty.required,
    brand_loyalty_name: rate.brandLoyalty.programme,
    elite: elite && {
      room_upgrade_guaranteed: elite.roomUpgradeGuaranteed,
      room_upgrade_subject_availability: elite.roomUpgradeSubjectToAvailability,
      late_checkout_guaranteed: elite.lateCheckoutGuaranteed,
      late_checkout_subject_availability: elite.lateCheckoutSubjectToAvailability,
      welcome_amenity: elite.welcomeAmenity,
      breakfast_included: elite.breakfastIncluded,
      travel_agent: elite.travelAgent,
      description: elite.description,
      price_property_credit: amount(elite.propertyCredit.amount),
      price_property_credit_currency: elite.propertyCredit.currency,
      property_credit_description: elite.propertyCreditDescription,
      breakfast_description: elite.breakfastDescription,
      breakfast_pax: elite.breakfastGuests,
    },
    price_commission: amount(rate.commission.amount),
    price_commission_currency: rate.commission.currency,
    payment_type: rate.paymentType,
  };
}

/**
 * The booking API's HotelDetails: the profile, with its lowest rate and lowest brand-loyalty
 * rate among `rates` (the API's, cheapest first), or none when rates are not the point.
 */
export function hotelAnswer(hotel: HotelProfile, rates: readonly HotelRate[] = []): HotelDetails {
  return {
    id: hotel.id,
    name: hotel.name,
    stars: hotel.stars,
    rating: hotel.rating,
    review_count: hotel.reviewCount,
    lowest_rate: rates[0] ?? null,
    lowest_brand_loyalty_rate: rates.find((rate) => rate.brand_loyalty_eligible) ?? null,
    minimum_age: hotel.minimumAge,
    amenities: hotel.amenities,
    check_in_begin_time: hotel.checkInFrom,
    check_in_end_time: hotel.checkInUntil,
    check_out_before_time: hotel.checkOutBefore,
    description: hotel.description,
    images: hotel.images,
    coordinates: hotel.coordinates,
    address: {
      address: hotel.address.street,
      city: hotel.address.city,
      country: hotel.address.country,
      postal_code: hotel.address.postalCode,
      region: hotel.address.region,
    },
    phone: hotel.phone,
    email: hotel.email,
    type: hotel.type,
    exclusive: hotel.exclusive,
  };
}

/** The answer of `GET /hotel/{hotel_id}/{session_id}`. */
export function hotelRatesAnswer(answer: HotelRates): HotelRatesData {
  const rates = answer.rates.map(rateAnswer);
  return { hotel: hotelAnswer(answer.hotel, rates), rates, search_completed: answer.completed };
}
