import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, ValidationArguments, registerDecorator } from 'class-validator';
import { WithSimulatedVendorCredentials, simulatedVendorCredentials } from '@hotel/hotelbeds';
import { FaultSettings, FaultSettingsError, parseFaultSettings } from './faults/fault-knobs';
import { parseVendorLatencies, type VendorCode } from './inventory/simulated-inventory';
import type { CredentialsByVendor } from './vendors/vendor-credentials';

/** A variable read by `parse` at start: valid when it parses. */
function Parses(parse: (value: string) => unknown, what: string) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'parses',
      target: target.constructor,
      propertyName,
      options: { message: (args: ValidationArguments) => `${propertyName} must be ${what}: ${problemOf(parse, String(args.value))}` },
      validator: { validate: (value: unknown) => typeof value === 'string' && problemOf(parse, value) === undefined },
    });
}

function problemOf(parse: (value: string) => unknown, value: string): string | undefined {
  try {
    parse(value);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function parseFaultsVariable(value: string): FaultSettings {
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    throw new FaultSettingsError(['not JSON']);
  }
  return parseFaultSettings(json);
}

/**
 * The simulator's environment, validated before anything starts. It is not a platform
 * service (no NATS), so it extends none of the platform's env classes (only the vendors'
 * credentials, which the platform reads alike); secrets follow the
 * platform's rules (`<NAME>_FILE`, development values refused with NODE_ENV=production).
 */
export class SimulatorEnv extends WithSimulatedVendorCredentials(class {}, { secrets: true }) {
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  DB_POOL_SIZE = 10;

  /** Where the vendors answer: http://HOST:PORT/<vendor>/… (0: any free port). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 8790;

  @IsOptional()
  @IsString()
  HOST = '127.0.0.1';

  /** How far the X-Signature's time may be from the simulator's clock. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(600)
  SIGNATURE_SKEW_S = 60;

  /** Each vendor's own answer time, `atlas=400,borealis=1500,cobalt=4000` (the defaults); vendors not named keep theirs. */
  @IsOptional()
  @Parses(parseVendorLatencies, 'vendor=milliseconds pairs separated by commas')
  VENDOR_LATENCY_MS?: string;

  /** Fault knobs at start, as JSON: `{"cobalt": {"serverErrorShare": 0.1}}` (see apps/vendor-simulator/README.md). */
  @IsOptional()
  @Parses(parseFaultsVariable, 'fault settings as JSON')
  SIMULATOR_FAULTS?: string;

  /**
   * Hotel codes are the platform's ids plus this (0: the ids themselves), as a real vendor
   * numbers its own; at most 900,000,000, so every code stays an integer the vendor's API takes.
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(900_000_000)
  SIMULATOR_HOTEL_CODE_OFFSET = 0;

  /** `true`: every city also has a hotel the platform's generated catalog lacks, carried by every vendor. */
  @IsOptional()
  @IsIn(['true', 'false'])
  SIMULATOR_VENDOR_ONLY_HOTELS: 'true' | 'false' = 'false';

  @IsOptional()
  @IsString()
  NODE_ENV?: string;

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug'])
  LOG_LEVEL: 'fatal' | 'error' | 'warn' | 'info' | 'debug' = 'info';
}

export function credentialsOf(env: SimulatorEnv): CredentialsByVendor {
  return simulatedVendorCredentials(env);
}

export function faultsOf(env: SimulatorEnv): FaultSettings {
  return env.SIMULATOR_FAULTS ? parseFaultsVariable(env.SIMULATOR_FAULTS) : {};
}

export function vendorLatenciesOf(env: SimulatorEnv): Record<VendorCode, number> {
  return parseVendorLatencies(env.VENDOR_LATENCY_MS);
}
