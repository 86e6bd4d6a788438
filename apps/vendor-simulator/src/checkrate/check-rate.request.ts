import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsOptional, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';

export class RateKeyPart {
  @IsString()
  @MinLength(1)
  @MaxLength(400)
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
