import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BookingEntity } from './booking.entity';
import { toBookingView } from './booking-view';

/**
 * The booking API's Booking of a stored booking (a real offer's rate and hotel, several rooms and
 * guests) in four states, as release-2026.11.27's booking service rendered it straight from the row
 * (__golden__/booking-view.json, captured from that code): rendered now through the booking's
 * snapshot in the booking service's words (bookingSnapshotOf, then bookingAnswer), it must be the same.
 */
describe("a stored booking's Booking, through its snapshot", () => {
  const golden = (file: string) => JSON.parse(readFileSync(join(__dirname, '__golden__', file), 'utf8'));
  const { row, variants, link } = golden('booking-row.json') as { row: Record<string, unknown>; variants: Record<string, Record<string, unknown>>; link: string };
  const expected = golden('booking-view.json') as Record<string, unknown>;
  const entity = (fields: Record<string, unknown>) =>
    ({
      ...fields,
      createdAt: new Date(fields.createdAt as string),
      updatedAt: new Date(fields.updatedAt as string),
      cancelledAt: fields.cancelledAt ? new Date(fields.cancelledAt as string) : null,
    }) as unknown as BookingEntity;

  it.each(Object.keys(variants))('%s: the same Booking as the previous release rendered', (name) => {
    expect(Object.keys(expected)).toEqual(Object.keys(variants));
    // toStrictEqual: no field lost or added, none undefined where a value was, -0 is not 0.
    expect(toBookingView(entity({ ...row, ...variants[name] }), link)).toStrictEqual(expected[name]);
  });
});
