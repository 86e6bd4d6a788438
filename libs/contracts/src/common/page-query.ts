import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsPositive, Max } from 'class-validator';

/** Applies decorators as if stacked in this order (the last one listed runs first, as stacked ones do). */
function stacked(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => {
    for (const decorator of [...decorators].reverse()) decorator(target, key);
  };
}

/** A query-string `page`: optional, a whole number from 1. */
export function PageNumber(): PropertyDecorator {
  return stacked(IsOptional(), Type(() => Number), IsInt(), IsPositive());
}

/** A query-string `limit`: optional, a whole number from 1 to `max`. */
export function PageLimit(max: number, message?: string): PropertyDecorator {
  return stacked(IsOptional(), Type(() => Number), IsInt(), IsPositive(), Max(max, message ? { message } : undefined));
}

/** `page` (from 1) and `limit` (at most 500) of a backend list; each list sets its own defaults. */
export class PageQuery {
  @PageNumber()
  page?: number;

  @PageLimit(500)
  limit?: number;
}
