import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import type { BookingListFilterType, BookingListStatus } from '@hotel/hotelbeds';

/** GET /hotel-api/1.0/bookings: the query as the client sends it. */
export class BookingListQuery {
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'start must be YYYY-MM-DD' })
  start: string;

  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'end must be YYYY-MM-DD' })
  end: string;

  /** 1-based, inclusive. */
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100_000_000)
  from: number;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100_000_000)
  to: number;

  @IsOptional()
  @IsIn(['CHECKIN', 'CREATION', 'MODIFIED', 'CLXPOLICIES'])
  filterType?: BookingListFilterType;

  @IsOptional()
  @IsIn(['ALL', 'CONFIRMED', 'CANCELLED'])
  status?: BookingListStatus;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(20)
  clientReference?: string;

  @IsOptional()
  @Matches(/^[A-Za-z]{2}(,[A-Za-z]{2}){0,99}$/)
  country?: string;

  @IsOptional()
  @Matches(/^[A-Za-z0-9]{1,20}(,[A-Za-z0-9]{1,20}){0,99}$/)
  destination?: string;

  @IsOptional()
  @Matches(/^\d{1,10}(,\d{1,10}){0,999}$/)
  hotel?: string;

  @IsOptional()
  @IsIn(['true', 'false'])
  extend?: string;
}

export class BookingReadQuery {
  @IsOptional()
  @Matches(/^[A-Za-z]{3}$/)
  language?: string;
}

/** DELETE /hotel-api/1.0/bookings/{reference}: CANCELLATION unless said otherwise, as the vendor does. */
export class CancellationQuery extends BookingReadQuery {
  @IsOptional()
  @IsIn(['CANCELLATION', 'SIMULATION'])
  cancellationFlag: 'CANCELLATION' | 'SIMULATION' = 'CANCELLATION';
}
