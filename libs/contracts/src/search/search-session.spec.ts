import { plainToInstance } from 'class-transformer';
import { ValidationError, validateSync } from 'class-validator';
import { StaySearch } from './search-session';

describe('StaySearch (search.session.create.v3), as the search service validates it', () => {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const valid = { placeId: 'gn:2988507', checkIn: day(30), checkOut: day(32), rooms: [{ adults: 2, children: 1, childAges: [7] }] };
  /** Each failing field (a dotted path) with its messages. */
  const problems = (input: object) => {
    const found: Record<string, string[]> = {};
    const collect = (errors: ValidationError[], parent: string) => {
      for (const error of errors) {
        const field = parent ? `${parent}.${error.property}` : error.property;
        if (error.constraints) found[field] = Object.values(error.constraints);
        collect(error.children ?? [], field);
      }
    };
    collect(validateSync(plainToInstance(StaySearch, input)), '');
    return found;
  };

  it('takes a place id or a destination id, the dates and the rooms', () => {
    expect(problems(valid)).toEqual({});
    expect(problems({ ...valid, placeId: 'city-2988507' })).toEqual({});
    expect(problems({ ...valid, placeId: 'cc:PT' })).toEqual({});
  });

  it('names each wrong field in its own words', () => {
    expect(Object.keys(problems({ ...valid, placeId: 'paris' }))).toEqual(['placeId']);
    expect(problems({ ...valid, checkOut: valid.checkIn })).toEqual({ checkOut: [expect.stringMatching(/^checkOut must be a date YYYY-MM-DD after checkIn/)] });
    expect(problems({ ...valid, checkIn: '2020-01-01', checkOut: '2020-01-03' })).toEqual({ checkIn: [expect.stringMatching(/^checkIn must be a date YYYY-MM-DD from today/)] });
    expect(problems({ ...valid, rooms: [{ adults: 2, children: 2, childAges: [7] }] })).toEqual({ 'rooms.0.childAges': ['childAges must give one age per child'] });
    expect(Object.keys(problems({ ...valid, rooms: [] }))).toEqual(['rooms']);
  });
});
