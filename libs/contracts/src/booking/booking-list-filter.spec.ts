import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { BookingListFilter, BookingListQuery, bookingListFilterOf } from './book';

describe('bookingListFilterOf: GET /book query in the booking context words', () => {
  it('maps every field of the query, and a day or a range of days to a DayRange', () => {
    const query: BookingListQuery = {
      page: 2,
      limit: 20,
      sort_by: 'price_chargeable',
      sort_order: 'asc',
      id: 7,
      hotel_name: 'Alpha',
      created_at: '2026-11-01..2026-11-30',
      check_in: '2027-01-05',
      check_out: '2027-01-06..2027-01-09',
      first_name: 'Ada',
      last_name: 'Lovelace',
      status: 'confirmed',
      payment_method: 'credit_card',
      vendor_reference: 'HB-1',
      client_reference: 'REF-1',
    };
    expect(bookingListFilterOf(query)).toEqual({
      page: 2,
      limit: 20,
      sortBy: 'priceChargeable',
      sortOrder: 'asc',
      id: 7,
      hotelName: 'Alpha',
      createdOn: { from: '2026-11-01', to: '2026-11-30' },
      checkIn: { from: '2027-01-05', to: '2027-01-05' },
      checkOut: { from: '2027-01-06', to: '2027-01-09' },
      firstName: 'Ada',
      lastName: 'Lovelace',
      status: 'confirmed',
      paymentMethod: 'credit_card',
      vendorReference: 'HB-1',
      clientReference: 'REF-1',
    });
  });

  it('leaves out what the query leaves out (an empty query is an empty filter), and maps each sort field', () => {
    expect(bookingListFilterOf({})).toEqual({});
    expect(Object.keys(bookingListFilterOf({ after: 9 }))).toEqual(['after']);
    const sortKeys = (['id', 'created_at', 'check_in', 'check_out', 'price_chargeable', 'hotel_name', 'status'] as const).map((field) => bookingListFilterOf({ sort_by: field }).sortBy);
    expect(sortKeys).toEqual(['id', 'createdAt', 'checkIn', 'checkOut', 'priceChargeable', 'hotelName', 'status']);
  });

  it('what it maps from a valid query is a valid filter; the filter refuses what is not a day, and the API names', () => {
    const valid = (plain: object) => validateSync(plainToInstance(BookingListFilter, plain), { whitelist: true, forbidNonWhitelisted: true });
    expect(valid(bookingListFilterOf({ check_in: '2027-01-05..2027-01-09', sort_by: 'hotel_name', limit: 200, after: 3 }))).toEqual([]);
    expect(valid({ checkIn: { from: '2027-02-30', to: '2027-03-01' } })).toHaveLength(1);
    expect(valid({ sortBy: 'price_chargeable' }).map((error) => error.property)).toEqual(['sortBy']);
    expect(valid({ hotel_name: 'Alpha' }).map((error) => error.property)).toEqual(['hotel_name']);
    expect(valid({ page: 2, after: 3 }).map((error) => error.property)).toEqual(['after']);
  });
});
