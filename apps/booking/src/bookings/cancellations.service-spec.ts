import { randomUUID } from 'node:crypto';
import { Actor, SUBJECTS } from '@hotel/contracts';
import { ServiceHarness } from '@hotel/testing';
import { answerSagaCallsNormally, newBookingTemplate, startBookingHarness } from '../../test/booking-fixtures';
import { BookingEnv } from '../booking.env';
import { BookingSaga } from './booking-saga';
import { FINAL_STEPS } from './booking.entity';
import { BookingsController } from './bookings.controller';
import { BookingsRepository, NewBooking } from './bookings.repository';
import { BookingsService } from './bookings.service';
import { Vouchers } from '../vouchers/vouchers';

// Service tier: what the booking service answers about cancelling (real PostgreSQL, the
// other services faked). Its operations answer domain data (the gateway renders the API's
// answers).

describe('cancellations (service tier)', () => {
  let harness: ServiceHarness<BookingEnv>;
  let controller: BookingsController;
  let template: NewBooking;
  const actor: Actor = { clientId: 1, userId: null, role: 'api', sandbox: false };

  /** A confirmed booking whose cancellation costs `penalty` (a period that began yesterday). */
  async function confirmedBooking(penalty: number, changes: Partial<NewBooking> = {}) {
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    const rate = { ...template.rate, cancellation_policy_data: [{ from_datetime: yesterday, price_cancellation_penalty: penalty, price_currency: template.priceCurrency }] };
    const bookings = harness.get(BookingsRepository);
    const created = await bookings.insert({ ...template, rate, prebookId: randomUUID(), requestFingerprint: randomUUID(), ...changes }, harness.env.IDEMPOTENCY_HOURS);
    const settled = await harness.get(BookingSaga).settle(created, { owned: true, deadline: Date.now() + 30_000, settled: (row) => FINAL_STEPS.includes(row.step) });
    expect(settled.status).toBe('confirmed');
    return settled;
  }

  beforeAll(async () => {
    harness = await startBookingHarness();
    // The controller as the bus reaches it (the harness holds the providers, not the controllers).
    controller = new BookingsController(harness.get(BookingsService), harness.get(Vouchers));
    template = newBookingTemplate();
    answerSagaCallsNormally(harness.client);
  });
  afterAll(() => harness?.close());

  it("quotes the penalty as a decimal string in the booking's currency", async () => {
    const booking = await confirmedBooking(12.5);
    const request = { actor, bookingId: booking.id };
    expect(await controller.precancel(request)).toEqual({ bookingId: booking.id, penalty: '12.50', currency: template.priceCurrency });
  });

  it("cancels once: the cancellation's reference, again on a repeat", async () => {
    const booking = await confirmedBooking(0);
    const request = { actor, bookingId: booking.id };
    const cancelled = await controller.cancel(request);
    expect(cancelled).toEqual({ bookingId: booking.id, cancelled: true, reference: expect.any(String) });
    expect(await controller.cancel(request)).toEqual(cancelled);
    expect(harness.client.callsTo(SUBJECTS.RATES_SUPPLIER_CANCEL)).toHaveLength(1);
  });

  it("another client's booking is not found", async () => {
    const booking = await confirmedBooking(0);
    const stranger = { actor: { ...actor, clientId: 2 }, bookingId: booking.id };
    for (const call of [() => controller.precancel(stranger), () => controller.cancel(stranger)]) {
      await expect(call()).rejects.toMatchObject({ code: 'NOT_FOUND' });
    }
  });
});
