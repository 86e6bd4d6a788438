import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsOptional, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';
import { HolderPart } from '../bookings/create-booking/create-booking.request';
import { PaxPart } from '../protocol/request-parts';

/** The desk's keys carry their terms, so they are longer than a vendor's. */
const MAX_DESK_KEY_LENGTH = 1500;

export class DeskRateKeyPart {
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_DESK_KEY_LENGTH)
  rateKey: string;
}

/** POST /sandbox/hotel-api/1.0/checkrates. */
export class DeskCheckRateRequest {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => DeskRateKeyPart)
  rooms: DeskRateKeyPart[];
}

export class DeskBookingRoomPart extends DeskRateKeyPart {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => PaxPart)
  paxes?: PaxPart[];
}

/** POST /sandbox/hotel-api/1.0/bookings. */
export class DeskBookingRequest {
  @IsDefined()
  @ValidateNested()
  @Type(() => HolderPart)
  holder: HolderPart;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => DeskBookingRoomPart)
  rooms: DeskBookingRoomPart[];

  @IsString()
  @MinLength(1)
  @MaxLength(20)
  clientReference: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  remark?: string;
}
