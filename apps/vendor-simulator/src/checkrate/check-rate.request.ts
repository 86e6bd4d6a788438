import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsOptional, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';

/** A vendor's keys are at most 400 characters (its decoder refuses longer ones); the sandbox desk's carry their terms. */
export const MAX_REQUEST_RATE_KEY_LENGTH = 1500;

export class RateKeyPart {
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_REQUEST_RATE_KEY_LENGTH)
  rateKey: string;
}

/** POST /hotel-api/1.0/checkrates. */
export class CheckRateRequest {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => RateKeyPart)
  rooms: RateKeyPart[];

  @IsOptional()
  @IsBoolean()
  upselling?: boolean;
}
