import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsNumber, IsOptional, IsString, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { MAX_REQUEST_RATE_KEY_LENGTH } from '../../checkrate/check-rate.request';
import { PaxPart } from '../../protocol/request-parts';

export class HolderPart {
  @IsString()
  @MinLength(1)
  @MaxLength(50)
  name: string;

  @IsString()
  @MinLength(1)
  @MaxLength(50)
  surname: string;
}

export class BookingRoomPart {
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_REQUEST_RATE_KEY_LENGTH)
  rateKey: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => PaxPart)
  paxes?: PaxPart[];
}

/** POST /hotel-api/1.0/bookings, within the bounds of the vendor's model. */
export class CreateBookingRequest {
  @IsDefined()
  @ValidateNested()
  @Type(() => HolderPart)
  holder: HolderPart;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => BookingRoomPart)
  rooms: BookingRoomPart[];

  @IsString()
  @MinLength(1)
  @MaxLength(20)
  clientReference: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  remark?: string;

  /** The price increase accepted, in percent, for a RECHECK rate booked without CheckRate. */
  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(100)
  tolerance?: number;
}
