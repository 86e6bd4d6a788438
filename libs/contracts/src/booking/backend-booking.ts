import { Type } from 'class-transformer';
import { IsDefined, IsInt, IsOptional, IsPositive, Matches, ValidateNested } from 'class-validator';
import { ActorScoped } from '../common/actor';
import { ENTITY_TAGS } from '../common/entity-tags';
import { PageAfter, PageQuery } from '../common/page-query';
import { BookingFx } from '../rates/fx';

/**
 * The backend API's booking (camelCase, money as strings), a different shape from the
 * booking API's. Its money is in `currency`, the client's; BookingFx says how the
 * vendor's price was converted into it.
 */
export interface BackendBooking extends BookingFx {
  id: number;
  status: 'confirmed' | 'pending' | 'cancelled';
  voucher: string;
  hotelId: number;
  checkIn: string;
  checkOut: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  lines: { lineText: string; amount: string }[];
  pricePerNight: string;
  priceFees: string;
  priceDueAtHotel: string;
  priceInclusive: string;
  priceChargeable: string;
  currency: string;
  remarks: string;
  roomType: string;
  cancellationPolicy: string;
  cancellationPolicyDate: string;
  rooms: { adults: { title: string | null; firstName: string; lastName: string }[]; children: { title: string | null; firstName: string; lastName: string; age: number }[] }[];
  clientCommission: string;
  paymentMethod: 'creditCard' | 'account';
  userId: number | null;
  /** A cancelled booking's cancellation reference; null unless cancelled. */
  cancellationReference: string | null;
  /** When it was cancelled (ISO 8601); null unless cancelled. */
  cancelledAt: string | null;
  /** What cancelling cost, in `currency` (the rest was refunded); null unless cancelled. */
  cancellationPenalty: string | null;
  hotel: {
    id: number;
    name: string;
    stars: number;
    coordinates?: [number, number];
    address: { address?: string; postalCode?: string; city?: string; country?: string };
    rating: number;
    reviews: number;
    pricePerNight: string;
    priceFees: string;
    priceDueAtHotel: string;
    priceInclusive: string;
    priceChargeable: string;
    amenities: string[];
    location: string;
    images: string[];
    exclusive: boolean;
    type: string;
  };
}

/** Query of `GET /api/booking` and `GET /api/booking/user/{userId}`: newest first, paged. */
export class BackendBookingQuery extends PageQuery {
  @PageAfter()
  after?: number;
}

/** What booking.backend-booking.list.v3 asks (with its If-None-Match: ListBackendBookingsRequestV3). */
export class ListBackendBookingsRequest extends ActorScoped {
  @IsOptional()
  @IsInt()
  @IsPositive()
  userId?: number;

  @IsDefined()
  @ValidateNested()
  @Type(() => BackendBookingQuery)
  query: BackendBookingQuery;
}

export interface BackendBookingPage {
  bookings: BackendBooking[];
  total: number;
}

/** booking.backend-booking.list.v3: with the client's If-None-Match; answered as booking.booking.list.v4 is (TaggedBookingPageChunk). */
export class ListBackendBookingsRequestV3 extends ListBackendBookingsRequest {
  @IsOptional()
  @Matches(ENTITY_TAGS)
  ifNoneMatch?: string;
}
