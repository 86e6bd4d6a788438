import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsPositive, Max, ValidateBy } from 'class-validator';
import { MAX_INT_ID } from './validators';

/** The last page any list serves: deeper pages are refused (400), not computed. */
export const MAX_PAGE = 100_000;

/** Applies decorators as if stacked in this order (the last one listed runs first, as stacked ones do). */
export function stacked(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => {
    for (const decorator of [...decorators].reverse()) decorator(target, key);
  };
}

/**
 * A whole number from the query string: only plain digits become a number, so
 * `1e300`, `0x10`, `1.5`, ` 7` or a repeated parameter (an array) stay as given
 * and the integer rule refuses them. Numbers (a request that crossed NATS) pass as they are.
 */
export function QueryInteger(): PropertyDecorator {
  return Transform(({ value }) => (typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value));
}

/** A query-string `page`: optional, a whole number from 1 to {@link MAX_PAGE}. */
export function PageNumber(): PropertyDecorator {
  return stacked(IsOptional(), QueryInteger(), IsInt(), IsPositive(), Max(MAX_PAGE, { message: `page must be from 1 to ${MAX_PAGE}` }));
}

/** A query-string `limit`: optional, a whole number from 1 to `max`. */
export function PageLimit(max: number, message?: string): PropertyDecorator {
  return stacked(IsOptional(), QueryInteger(), IsInt(), IsPositive(), Max(max, message ? { message } : undefined));
}

/**
 * A query-string `after` (keyset paging): the id of the last item of the page the caller
 * has; the next page starts after it, in the list's order. A deep page costs what the first
 * does (with `page`, the database walks past every earlier row). Not together with `page`.
 */
export function PageAfter(): PropertyDecorator {
  return stacked(
    IsOptional(),
    QueryInteger(),
    IsInt(),
    IsPositive(),
    Max(MAX_INT_ID, { message: `after must be a positive integer up to ${MAX_INT_ID}` }),
    ValidateBy({
      name: 'notWithPage',
      validator: {
        validate: (_value, args) => (args?.object as { page?: unknown }).page === undefined,
        defaultMessage: () => 'after and page cannot be combined: after names the last booking of the page you have',
      },
    }),
  );
}

/** A query-string id filter: optional, a whole number that fits PostgreSQL's `integer`. */
export function QueryId(): PropertyDecorator {
  return stacked(IsOptional(), QueryInteger(), IsInt(), IsPositive(), Max(MAX_INT_ID, { message: `$property must be a positive integer up to ${MAX_INT_ID}` }));
}

/** `page` (from 1) and `limit` (at most 500) of a backend list; each list sets its own defaults. */
export class PageQuery {
  @PageNumber()
  page?: number;

  @PageLimit(500)
  limit?: number;
}
