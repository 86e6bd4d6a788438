import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength, ValidateNested, ArrayMaxSize, IsArray } from 'class-validator';
import { parseDay } from '@hotel/contracts';
import type { PaxType } from '@hotel/hotelbeds';
import { invalidData } from '../http/vendor-errors';
import type { Occupancy } from '../rates/rate-key';

/** The longest stay the simulated vendors sell. */
export const MAX_NIGHTS = 30;
/** How far ahead they sell. */
export const MAX_DAYS_AHEAD = 730;

const DAY_MS = 86_400_000;

/** A passenger, as the vendor's requests carry them (occupancies, booking rooms). */
export class PaxPart {
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(99)
  roomId?: number;

  @IsIn(['AD', 'CH'])
  type: PaxType;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(120)
  age?: number;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(50)
  name?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(50)
  surname?: string;
}

export class OccupancyPart {
  @IsInt()
  @Min(1)
  @Max(9)
  rooms: number;

  @IsInt()
  @Min(1)
  @Max(8)
  adults: number;

  @IsInt()
  @Min(0)
  @Max(6)
  children: number;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(200)
  @ValidateNested({ each: true })
  @Type(() => PaxPart)
  paxes?: PaxPart[];
}

/**
 * An occupancy's rooms, each with `adults` and `children` (the counts are per room, and
 * the children's ages are those of the CH paxes, one per child, the same in every room).
 */
export function occupancyOf(part: OccupancyPart): Occupancy {
  const ages = (part.paxes ?? []).filter((pax) => pax.type === 'CH').map((pax) => pax.age);
  if (part.children > 0) {
    if (ages.length !== part.children || ages.some((age) => age === undefined || age > 17)) {
      throw invalidData(`an occupancy of ${part.children} children needs a CH pax with an age (0 to 17) for each`);
    }
  } else if (ages.length > 0) {
    throw invalidData('CH paxes in an occupancy of no children');
  }
  return { rooms: part.rooms, adults: part.adults, children: part.children, childAges: ages as number[] };
}

/** Check-in and check-out as the vendor takes them: real days, check-in not past, 1 to 30 nights, at most two years ahead. */
export function checkStay(checkIn: string, checkOut: string, now: number): void {
  const first = parseDay(checkIn);
  const last = parseDay(checkOut);
  if (!first || !last) throw invalidData('checkIn and checkOut must be days, YYYY-MM-DD');
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  if (first.getTime() < today) throw invalidData('The check-in date cannot be in the past');
  if (first.getTime() > today + MAX_DAYS_AHEAD * DAY_MS) throw invalidData(`The check-in date cannot be more than ${MAX_DAYS_AHEAD} days ahead`);
  const nights = (last.getTime() - first.getTime()) / DAY_MS;
  if (nights < 1 || nights > MAX_NIGHTS) throw invalidData(`A stay is 1 to ${MAX_NIGHTS} nights`);
}

/** The nights of a stay, YYYY-MM-DD, ascending. */
export function nightsOf(checkIn: string, checkOut: string): string[] {
  const nights: string[] = [];
  for (let time = parseDay(checkIn)!.getTime(); time < parseDay(checkOut)!.getTime(); time += DAY_MS) nights.push(new Date(time).toISOString().slice(0, 10));
  return nights;
}
