import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsInt, Matches, Max, Min, ValidateNested } from 'class-validator';
import { MAX_HOTELS_PER_AVAILABILITY } from '@hotel/hotelbeds';
import { OccupancyPart } from '../protocol/request-parts';

export class StayPart {
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'checkIn must be YYYY-MM-DD' })
  checkIn: string;

  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'checkOut must be YYYY-MM-DD' })
  checkOut: string;
}

export class HotelsPart {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_HOTELS_PER_AVAILABILITY)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(2_147_483_647, { each: true })
  hotel: number[];
}

/**
 * POST /hotel-api/1.0/hotels, by hotel codes (the only search the simulated vendors
 * serve). Filters, boards, rooms, language and the rest of the vendor's request are
 * accepted and not applied.
 */
export class AvailabilityRequest {
  @IsDefined()
  @ValidateNested()
  @Type(() => StayPart)
  stay: StayPart;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => OccupancyPart)
  occupancies: OccupancyPart[];

  @IsDefined()
  @ValidateNested()
  @Type(() => HotelsPart)
  hotels: HotelsPart;
}
