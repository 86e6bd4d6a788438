/** Wire shapes of the specification's hotel resources (snake_case, as the booking API shows them). */

export interface Coordinates {
  lat: number;
  long: number;
}

export interface CancellationPolicyData {
  from_datetime: string;
  price_cancellation_penalty: number;
  price_currency: string;
}

export interface BedType {
  name: string;
  size: string;
  quantity: number;
}

export interface HotelRateRoomData {
  images: string[];
  size_sqft: number;
  size_sqm: number;
  max_occupancy: number;
  max_adults: number;
  max_children: number;
  beds: BedType[];
  amenities: string[];
  room_id: number;
}

export interface HotelRateFee {
  name: string;
  price: number;
  due_at_hotel: boolean;
  price_currency: string;
}

export const BOARDS = ['RO', 'BB', 'HB', 'FB', 'AI'] as const;
export type Board = (typeof BOARDS)[number];

export interface HotelRateRoom {
  name: string;
  board: Board;
  room_data: HotelRateRoomData;
  price_per_night_avg: number;
  price_per_night: number[];
  price_chargeable: number;
  price_per_room: number;
  price_before_fees: number;
  price_fees: number;
  price_due_at_hotel: number;
  price_inclusive: number;
  price_currency: string;
  fees: HotelRateFee[];
  deposit_per_accomodation_per_night: number;
  deposit_currency: string;
  adults: number;
  children: number;
  children_ages: number[];
}

export interface HotelRateElite {
  room_upgrade_guaranteed: boolean;
  room_upgrade_subject_availability: boolean;
  late_checkout_guaranteed: boolean;
  late_checkout_subject_availability: boolean;
  welcome_amenity: boolean;
  breakfast_included: boolean;
  travel_agent: boolean;
  description: string[];
  price_property_credit: number;
  price_property_credit_currency: string;
  property_credit_description: string;
  breakfast_description: string;
  breakfast_pax: number;
}

export type CancellationPolicy = 'Refundable' | 'NonRefundable';
export type PaymentType = 'account' | 'credit_card';

export interface HotelRate {
  id: string;
  hotel_id: number;
  rooms: HotelRateRoom[];
  price_per_night_avg: number;
  price_per_night: number[];
  price_chargeable: number;
  price_per_room: number[];
  price_per_night_per_room: number[][];
  price_before_fees: number;
  price_fees: number;
  price_due_at_hotel: number;
  price_inclusive: number;
  price_currency: string;
  price_retail: number;
  cancellation_policy: CancellationPolicy;
  cancellation_policy_datetime: string;
  cancellation_policy_data: CancellationPolicyData[];
  brand_loyalty_eligible: boolean;
  brand_loyalty_required: boolean;
  brand_loyalty_name: string | null;
  elite: HotelRateElite | null;
  price_commission: number;
  price_commission_currency: string;
  payment_type: PaymentType;
}

export interface HotelAddress {
  address: string;
  city: string;
  country: string;
  postal_code: string;
  region: string;
}

export interface HotelDetails {
  id: number;
  name: string;
  stars: number;
  rating: number;
  review_count: number;
  lowest_rate: HotelRate | null;
  lowest_brand_loyalty_rate: HotelRate | null;
  minimum_age: number;
  amenities: string[];
  check_in_begin_time: string;
  check_in_end_time: string;
  check_out_before_time: string;
  description: string;
  images: string[];
  coordinates: Coordinates;
  address: HotelAddress;
  /** The hotel's telephone, international format (an addition); null when unknown. */
  phone: string | null;
  /** The hotel's reservations e-mail (an addition); null when unknown. */
  email: string | null;
  type: string;
  exclusive: boolean;
}
