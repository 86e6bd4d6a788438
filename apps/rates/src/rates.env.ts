import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min, ValidationArguments, registerDecorator } from 'class-validator';
import { VendorsEnv } from '@hotel/hotelbeds';

/** An http(s) URL without credentials of at most 200 characters (it is kept as the source of the sets it brings); https only with NODE_ENV=production. */
function IsFxRatesUrl() {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isFxRatesUrl',
      target: target.constructor,
      propertyName,
      options: { message: `${propertyName} must be an https:// URL (http:// also outside production) of at most 200 characters, without credentials` },
      validator: {
        validate(value: unknown, args: ValidationArguments) {
          if (typeof value !== 'string' || value.length > 200 || !URL.canParse(value)) return false;
          const url = new URL(value);
          const production = (args.object as { NODE_ENV?: string }).NODE_ENV === 'production';
          return (url.protocol === 'https:' || (url.protocol === 'http:' && !production)) && !url.username && !url.password;
        },
      },
    });
}

export class RatesEnv extends VendorsEnv {
  /**
   * How long one attempt to book with a vendor has the call in hand: another attempt for
   * the same booking waits meanwhile, and after it a lost answer is asked of the vendor.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(600)
  SUPPLIER_ATTEMPT_S = 30;

  /** A prebook holds its price this long; book needs one that has not expired. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(24 * 3600)
  PREBOOK_TTL_S = 900;


  /**
   * Where the daily refresh fetches the ECB's daily rates file. With NODE_ENV=production
   * the ECB's own address when unset; outside production the refresh runs only when it is set.
   */
  @IsOptional()
  @IsFxRatesUrl()
  FX_RATES_URL?: string;

  /** The refresh fetches FX_RATES_URL at start and then this often (one replica per interval). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(24 * 60)
  FX_REFRESH_INTERVAL_MIN = 60;

  /** One fetch of FX_RATES_URL, redirects and body included, gives up after this long. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(120_000)
  FX_FETCH_TIMEOUT_MS = 10_000;

  /** From this hour (UTC) on, the remote vendors are reconciled over the day before (one replica; only with a remote vendor). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(23)
  VENDOR_RECONCILIATION_HOUR = 3;
}
