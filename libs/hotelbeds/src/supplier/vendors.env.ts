import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength, ValidationArguments, registerDecorator } from 'class-validator';
import { VENDOR_CODES, VendorCode } from '@hotel/inventory';
import { DEVELOPMENT_SECRET_PREFIX, RateIdEnv, Secret } from '@hotel/platform';

// A mixin's base must take any arguments (TypeScript's rule for mixin classes).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Constructor<T = object> = new (...args: any[]) => T;

/**
 * The three simulated vendors' credentials and how long they keep a sandbox booking pending,
 * read alike by the vendor simulator (which checks
 * them, and as secrets refuses their development values and obvious patterns with
 * NODE_ENV=production) and by the platform (which signs with them when VENDOR_SIMULATOR_URL
 * points it there; a simulator is no production vendor, so there they are not secrets
 * production insists on). Both sides read them from `<NAME>_FILE` too, as `npm start` gives them.
 */
export function WithSimulatedVendorCredentials<Base extends Constructor>(base: Base, options: { secrets: boolean }) {
  const secret: PropertyDecorator = Secret({ vendorCredential: true, checkedInProduction: options.secrets });
  class SimulatedVendorCredentials extends base {
    @IsOptional()
    @IsString()
    @MinLength(8)
    @MaxLength(200)
    @secret
    VENDOR_ATLAS_API_KEY = `${DEVELOPMENT_SECRET_PREFIX}atlas-api-key`;

    @IsOptional()
    @IsString()
    @MinLength(8)
    @MaxLength(200)
    @secret
    VENDOR_ATLAS_SECRET = `${DEVELOPMENT_SECRET_PREFIX}atlas-secret`;

    @IsOptional()
    @IsString()
    @MinLength(8)
    @MaxLength(200)
    @secret
    VENDOR_BOREALIS_API_KEY = `${DEVELOPMENT_SECRET_PREFIX}borealis-api-key`;

    @IsOptional()
    @IsString()
    @MinLength(8)
    @MaxLength(200)
    @secret
    VENDOR_BOREALIS_SECRET = `${DEVELOPMENT_SECRET_PREFIX}borealis-secret`;

    @IsOptional()
    @IsString()
    @MinLength(8)
    @MaxLength(200)
    @secret
    VENDOR_COBALT_API_KEY = `${DEVELOPMENT_SECRET_PREFIX}cobalt-api-key`;

    @IsOptional()
    @IsString()
    @MinLength(8)
    @MaxLength(200)
    @secret
    VENDOR_COBALT_SECRET = `${DEVELOPMENT_SECRET_PREFIX}cobalt-secret`;

    /** The simulator's sandbox desk (every sandbox prebook and booking, whichever vendor's): its Api-key and secret (which also signs its rate keys). */
    @IsOptional()
    @IsString()
    @MinLength(8)
    @MaxLength(200)
    @secret
    VENDOR_SANDBOX_API_KEY = `${DEVELOPMENT_SECRET_PREFIX}sandbox-api-key`;

    @IsOptional()
    @IsString()
    @MinLength(8)
    @MaxLength(200)
    @secret
    VENDOR_SANDBOX_SECRET = `${DEVELOPMENT_SECRET_PREFIX}sandbox-secret`;

    /** A booking in the sandbox scenario supplier_pending is confirmed by its vendor this long after it was made. */
    @IsOptional()
    @Type(() => Number)
    @IsInt()
    @Min(0)
    @Max(3600)
    SUPPLIER_PENDING_S = 60;
  }
  return SimulatedVendorCredentials;
}

export type SimulatedVendorCredentialsEnv = InstanceType<ReturnType<typeof WithSimulatedVendorCredentials<Constructor>>>;

/** The simulator's counters: its three vendors, and the sandbox desk. */
export type SimulatorDesk = 'atlas' | 'borealis' | 'cobalt' | 'sandbox';

/** Each simulated vendor's Api-key and secret, and the sandbox desk's. */
export function simulatedVendorCredentials(env: SimulatedVendorCredentialsEnv): Record<SimulatorDesk, { apiKey: string; secret: string }> {
  return {
    atlas: { apiKey: env.VENDOR_ATLAS_API_KEY, secret: env.VENDOR_ATLAS_SECRET },
    borealis: { apiKey: env.VENDOR_BOREALIS_API_KEY, secret: env.VENDOR_BOREALIS_SECRET },
    cobalt: { apiKey: env.VENDOR_COBALT_API_KEY, secret: env.VENDOR_COBALT_SECRET },
    sandbox: { apiKey: env.VENDOR_SANDBOX_API_KEY, secret: env.VENDOR_SANDBOX_SECRET },
  };
}

/**
 * An http(s) URL without credentials: https only with NODE_ENV=production for a real
 * vendor; `plainHttp` (the platform's own vendor simulator, on its private network behind
 * the network policies, with credentials that open nothing real) may be http anywhere.
 */
function IsVendorUrl(options: { plainHttp: boolean }) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isVendorUrl',
      target: target.constructor,
      propertyName,
      options: { message: `${propertyName} must be an ${options.plainHttp ? 'http:// or https://' : 'https://'} URL without credentials${options.plainHttp ? '' : ' (http:// outside production)'}` },
      validator: {
        validate(value: unknown, args: ValidationArguments) {
          if (typeof value !== 'string' || value.length > 300 || !URL.canParse(value)) return false;
          const url = new URL(value);
          if (url.username || url.password) return false;
          if (url.protocol === 'https:') return true;
          const production = (args.object as { NODE_ENV?: string }).NODE_ENV === 'production';
          return url.protocol === 'http:' && (!production || options.plainHttp);
        },
      },
    });
}

/**
 * How the search and rates services reach vendors.
 * - `HOTELBEDS_API_KEY` (with `HOTELBEDS_SECRET`) turns on the vendor `hotelbeds` at
 *   `HOTELBEDS_BASE_URL` (the vendor's test environment by default).
 * - `VENDOR_SIMULATOR_URL` reaches the vendor simulator: its sandbox desk (every sandbox
 *   prebook and booking) and the simulated vendors `SIMULATED_VENDORS` names (atlas,
 *   borealis and cobalt unless said; none where live clients must see only real vendors),
 *   each under `/<vendor>` with its credentials.
 * Without any vendor the services do not start (no vendor runs in process).
 */
export class VendorsEnv extends WithSimulatedVendorCredentials(RateIdEnv, { secrets: false }) {
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  @Secret({ optional: true, vendorCredential: true })
  HOTELBEDS_API_KEY?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  @Secret({ optional: true, vendorCredential: true })
  HOTELBEDS_SECRET?: string;

  @IsOptional()
  @IsVendorUrl({ plainHttp: false })
  HOTELBEDS_BASE_URL = 'https://api.test.hotelbeds.com';

  @IsOptional()
  @IsVendorUrl({ plainHttp: true })
  VENDOR_SIMULATOR_URL?: string;

  /** The simulator's vendors the platform trades with, comma-separated (empty: none, the simulator serving the sandbox desk alone). */
  @IsOptional()
  @Matches(new RegExp(`^((${VENDOR_CODES.join('|')})(,(${VENDOR_CODES.join('|')}))*)?$`), { message: `SIMULATED_VENDORS must list vendors of ${VENDOR_CODES.join(', ')}, comma-separated (or be empty)` })
  SIMULATED_VENDORS: string = VENDOR_CODES.join(',');

  /**
   * How long a vendor operation's circuit breaker stays open (after 5 failures in a row)
   * before one request probes the vendor again. Meanwhile that operation fails at once
   * (503 to partners, cancellations and bookings retried by their sagas).
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(600_000)
  VENDOR_BREAKER_COOLDOWN_MS = 30_000;
}

/** The simulated vendors a configuration trades with. */
export function simulatedVendorsOf(env: Pick<VendorsEnv, 'SIMULATED_VENDORS'>): VendorCode[] {
  const named = new Set(env.SIMULATED_VENDORS.split(',').filter(Boolean));
  return VENDOR_CODES.filter((code) => named.has(code));
}
