import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsInt,
  Max,
  Min,
  ValidateNested,
  ValidationArguments,
  ValidationOptions,
  registerDecorator,
} from 'class-validator';

/** Limits of the specification: rooms per search, guests per room, child ages, stay length. */
export const STAY_LIMITS = {
  maxRooms: 8,
  maxAdults: 14,
  maxChildren: 6,
  maxChildAge: 17,
  maxNights: 30,
  maxDaysAhead: 500,
} as const;

const DAY_MS = 86_400_000;

/** Parses YYYY-MM-DD as a real calendar day (UTC midnight), else null. */
export function parseDay(value: unknown): Date | null {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value ? null : date;
}

export function nightsBetween(checkIn: string, checkOut: string): number {
  return Math.round((parseDay(checkOut)!.getTime() - parseDay(checkIn)!.getTime()) / DAY_MS);
}

export function todayUtc(now = Date.now()): Date {
  return new Date(Math.floor(now / DAY_MS) * DAY_MS);
}

function decorator(name: string, validate: (value: unknown, args: ValidationArguments) => boolean, message: string, options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({ name, target: target.constructor, propertyName, options: { message, ...options }, validator: { validate } });
}

/** A check-in day: a real day, not in the past (UTC) and at most 500 days ahead. */
export function IsCheckInDay(options?: ValidationOptions) {
  return decorator(
    'isCheckInDay',
    (value) => {
      const day = parseDay(value);
      if (!day) return false;
      const today = todayUtc().getTime();
      return day.getTime() >= today && day.getTime() <= today + STAY_LIMITS.maxDaysAhead * DAY_MS;
    },
    `$property must be a date YYYY-MM-DD from today (UTC) to ${STAY_LIMITS.maxDaysAhead} days ahead`,
    options,
  );
}

/** check_out: a real day after check-in (the `checkInField` of the same object), at most 30 nights later. */
export function IsCheckOutDay(options?: ValidationOptions, checkInField = 'check_in') {
  return decorator(
    'isCheckOutDay',
    (value, args) => {
      const checkOut = parseDay(value);
      const checkIn = parseDay((args.object as Record<string, unknown>)[checkInField]);
      if (!checkOut) return false;
      if (!checkIn) return true; // check-in reports its own error
      const nights = (checkOut.getTime() - checkIn.getTime()) / DAY_MS;
      return nights >= 1 && nights <= STAY_LIMITS.maxNights;
    },
    `$property must be a date YYYY-MM-DD after ${checkInField}, at most ${STAY_LIMITS.maxNights} nights later`,
    options,
  );
}

/** One age per child: the array's length is the object's `children`. */
export function ChildAgesMatchChildren(name = 'children_ages', options?: ValidationOptions) {
  return decorator(
    'childAgesMatchChildren',
    (value, args) => Array.isArray(value) && value.length === (args.object as { children?: unknown }).children,
    `${name} must give one age per child`,
    options,
  );
}

/** One room of a search: the guests who will sleep in it. */
export class RoomRequest {
  @IsInt()
  @Min(1)
  @Max(STAY_LIMITS.maxAdults)
  adults: number;

  @IsInt()
  @Min(0)
  @Max(STAY_LIMITS.maxChildren)
  children: number;

  @IsArray()
  @IsInt({ each: true })
  @Min(0, { each: true })
  @Max(STAY_LIMITS.maxChildAge, { each: true })
  @ChildAgesMatchChildren()
  children_ages: number[];
}

/** Dates and rooms, shared by V1 search and V2 rates. */
export class StayRequest {
  @IsCheckInDay()
  check_in: string;

  @IsCheckOutDay()
  check_out: string;

  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(STAY_LIMITS.maxRooms)
  @ValidateNested({ each: true })
  @Type(() => RoomRequest)
  rooms: RoomRequest[];
}
