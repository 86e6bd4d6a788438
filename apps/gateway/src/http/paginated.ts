/**
 * A page of a list: the envelope puts `items` in `data` and adds `total` (all
 * matches across pages), as the specification's `GET /book` does.
 */
export class Paginated<T> {
  constructor(
    readonly items: T[],
    readonly total: number,
  ) {}
}
