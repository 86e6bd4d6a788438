import { randomUUID } from 'node:crypto';
import { SUBJECTS, milliToDecimal, toMilli } from '@hotel/contracts';
import { DomainError } from '@hotel/platform';
import { ServiceHarness } from '@hotel/testing';
import { BookingEnv } from '../booking.env';
import { BookingSaga } from './booking-saga';
import { BookingEntity, FINAL_STEPS, SagaStep } from './booking.entity';
import { BookingsRepository, NewBooking } from './bookings.repository';
import { newBookingTemplate, startBookingHarness } from '../../test/booking-fixtures';

// Service tier: the booking saga with the booking app's providers (its real
// repository, the sandbox payment processor) on a fresh PostgreSQL database with the
// booking migrations; accounting, rates and promo are fakes answering by subject.

describe('BookingSaga (service tier: real PostgreSQL, fake accounting, rates and promo)', () => {
  let harness: ServiceHarness<BookingEnv>;
  let saga: BookingSaga;
  let bookings: BookingsRepository;
  let template: NewBooking;
  /** Each call the saga made, with the booking's recorded step at that moment. */
  const seen: [string, SagaStep][] = [];

  const note = async (subject: string, bookingId: number) => {
    seen.push([subject, (await bookings.find(bookingId))!.step]);
  };

  /** The other services answer as they do when all goes well. */
  function answerNormally() {
    harness.client
      .on(SUBJECTS.ACCOUNTING_HOLD_PLACE, async ({ bookingId, amount }) => {
        await note(SUBJECTS.ACCOUNTING_HOLD_PLACE, bookingId);
        return { bookingId, amount, status: 'active', entryId: null };
      })
      .on(SUBJECTS.RATES_SUPPLIER_BOOK, async ({ bookingId }) => {
        await note(SUBJECTS.RATES_SUPPLIER_BOOK, bookingId);
        return { reference: `SUP-${bookingId}`, status: 'confirmed' };
      })
      .on(SUBJECTS.PROMO_CODE_REDEEM, async ({ bookingId, code, currency }) => {
        await note(SUBJECTS.PROMO_CODE_REDEEM, bookingId);
        return { code, discount: '10.00', currency };
      })
      .on(SUBJECTS.ACCOUNTING_HOLD_CAPTURE, async ({ bookingId }) => {
        await note(SUBJECTS.ACCOUNTING_HOLD_CAPTURE, bookingId);
        return { bookingId, amount: '0.00', status: 'captured', entryId: bookingId };
      })
      .on(SUBJECTS.ACCOUNTING_HOLD_RELEASE, async ({ bookingId }) => {
        await note(SUBJECTS.ACCOUNTING_HOLD_RELEASE, bookingId);
        return { bookingId, amount: '0.00', status: 'released', entryId: null };
      })
      .on(SUBJECTS.RATES_SUPPLIER_CANCEL, async ({ bookingId }) => {
        await note(SUBJECTS.RATES_SUPPLIER_CANCEL, bookingId);
        return { reference: `SUP-${bookingId}`, status: 'cancelled' };
      })
      .on(SUBJECTS.RATES_PREBOOK_ATTACH, async ({ bookingId }) => {
        await note(SUBJECTS.RATES_PREBOOK_ATTACH, bookingId);
        return { attached: true };
      });
  }

  /** A booking as BookingsService records it (step created, leased to this worker), then its saga run by its owner. */
  async function book(changes: Partial<NewBooking> = {}): Promise<{ created: BookingEntity; settled: BookingEntity }> {
    const created = await bookings.insert({ ...template, prebookId: randomUUID(), requestFingerprint: randomUUID(), ...changes }, harness.env.IDEMPOTENCY_HOURS);
    const settled = await saga.settle(created, { owned: true, deadline: Date.now() + 30_000, settled: (row) => FINAL_STEPS.includes(row.step) });
    return { created, settled };
  }

  beforeAll(async () => {
    harness = await startBookingHarness();
    saga = harness.get(BookingSaga);
    bookings = harness.get(BookingsRepository);

    template = newBookingTemplate();
  });

  beforeEach(() => {
    harness.client.reset();
    seen.length = 0;
    answerNormally();
  });

  afterAll(async () => {
    await harness?.close();
  });

  it('an account booking with a promo code holds, books with the supplier, redeems, captures: each step recorded before the next call', async () => {
    const { created, settled } = await book({ promoCode: 'SAVE10', promoDiscount: '10.00' });

    expect(settled).toMatchObject({ step: 'done', status: 'confirmed', supplierReference: `SUP-${created.id}`, bookingReference: [`SUP-${created.id}`, `HB-${created.id}`] });
    expect(await bookings.find(created.id)).toMatchObject({ step: 'done', status: 'confirmed' });
    expect(seen).toEqual([
      [SUBJECTS.ACCOUNTING_HOLD_PLACE, 'created'],
      [SUBJECTS.RATES_SUPPLIER_BOOK, 'funds_held'],
      [SUBJECTS.PROMO_CODE_REDEEM, 'supplier_booked'],
      [SUBJECTS.ACCOUNTING_HOLD_CAPTURE, 'promo_redeemed'],
      [SUBJECTS.RATES_PREBOOK_ATTACH, 'done'],
    ]);
    const price = toMilli(template.priceChargeable);
    expect(harness.client.callsTo(SUBJECTS.ACCOUNTING_HOLD_PLACE)[0].request).toMatchObject({ clientId: 1, bookingId: created.id, amount: milliToDecimal(price) });
    // The code is redeemed on the price before its discount.
    expect(harness.client.callsTo(SUBJECTS.PROMO_CODE_REDEEM)[0].request).toMatchObject({ code: 'SAVE10', amount: milliToDecimal(price + 10000) });
    expect(harness.client.callsTo(SUBJECTS.RATES_PREBOOK_ATTACH)[0].request).toEqual({ prebookId: created.prebookId, bookingId: created.id, processing: false });
  });

  it('the repository answers what it stored: an inserted booking reads back equal, a step moves only its step and updatedAt', async () => {
    const inserted = await bookings.insert({ ...template, prebookId: randomUUID(), requestFingerprint: randomUUID() }, harness.env.IDEMPOTENCY_HOURS);
    expect(inserted.createdAt).toBeInstanceOf(Date);
    expect(await bookings.find(inserted.id)).toEqual(inserted);
    const advanced = await bookings.advance(inserted, 'funds_held');
    expect(advanced).toEqual({ ...inserted, step: 'funds_held', updatedAt: expect.any(Date) });
    expect(await bookings.find(inserted.id)).toEqual(advanced);
    // From a step it no longer has, nothing moves.
    expect(await bookings.advance(inserted, 'funds_held')).toBeNull();
  });

  it('a business failure from the supplier compensates: the hold is released and the booking fails with its reason', async () => {
    harness.client.on(SUBJECTS.RATES_SUPPLIER_BOOK, () => {
      throw new DomainError('SUPPLIER_ERROR', 'the vendor refused the booking');
    });
    const { created, settled } = await book();

    expect(settled).toMatchObject({ step: 'failed', status: 'failed', failureCode: 'SUPPLIER_ERROR', failureReason: 'the vendor refused the booking' });
    expect(await bookings.find(created.id)).toMatchObject({ step: 'failed', status: 'failed' });
    // Nothing was booked with the supplier, so nothing is cancelled there; nothing is captured.
    expect(harness.client.subjects()).toEqual([
      SUBJECTS.ACCOUNTING_HOLD_PLACE,
      SUBJECTS.RATES_SUPPLIER_BOOK,
      SUBJECTS.ACCOUNTING_HOLD_RELEASE,
      SUBJECTS.RATES_PREBOOK_ATTACH,
    ]);
    expect(seen).toContainEqual([SUBJECTS.ACCOUNTING_HOLD_RELEASE, 'compensating']);
    expect(harness.client.callsTo(SUBJECTS.ACCOUNTING_HOLD_RELEASE)[0].request).toEqual({ clientId: 1, bookingId: created.id });
  });

  it('a failure after the supplier booked also cancels the supplier booking', async () => {
    harness.client.on(SUBJECTS.PROMO_CODE_REDEEM, () => {
      throw new DomainError('PROMO_CODE_INVALID', 'promo code used up');
    });
    const { settled } = await book({ promoCode: 'SAVE10', promoDiscount: '10.00' });

    expect(settled).toMatchObject({ step: 'failed', status: 'failed', failureCode: 'PROMO_CODE_INVALID' });
    expect(harness.client.subjects()).toEqual([
      SUBJECTS.ACCOUNTING_HOLD_PLACE,
      SUBJECTS.RATES_SUPPLIER_BOOK,
      SUBJECTS.PROMO_CODE_REDEEM,
      SUBJECTS.RATES_SUPPLIER_CANCEL,
      SUBJECTS.ACCOUNTING_HOLD_RELEASE,
      SUBJECTS.RATES_PREBOOK_ATTACH,
    ]);
  });

  it('insufficient funds fail the booking before the supplier hears of it', async () => {
    harness.client.on(SUBJECTS.ACCOUNTING_HOLD_PLACE, () => {
      throw new DomainError('INSUFFICIENT_FUNDS', 'insufficient funds');
    });
    const { settled } = await book();

    expect(settled).toMatchObject({ step: 'failed', status: 'failed', failureCode: 'INSUFFICIENT_FUNDS' });
    expect(harness.client.callsTo(SUBJECTS.RATES_SUPPLIER_BOOK)).toEqual([]);
    expect(harness.client.callsTo(SUBJECTS.ACCOUNTING_HOLD_CAPTURE)).toEqual([]);
  });

  it('a sandbox booking moves no money', async () => {
    const { settled } = await book({ sandbox: true });

    expect(settled).toMatchObject({ step: 'done', status: 'confirmed' });
    expect(harness.client.subjects()).toEqual([SUBJECTS.RATES_SUPPLIER_BOOK, SUBJECTS.RATES_PREBOOK_ATTACH]);
    expect(harness.client.callsTo(SUBJECTS.RATES_SUPPLIER_BOOK)[0].request).toMatchObject({ sandbox: true });
  });

  it('with accounting down at capture the booking waits at its step (not failed) and recovery finishes it once accounting is back', async () => {
    harness.client.off(SUBJECTS.ACCOUNTING_HOLD_CAPTURE);
    const { created, settled } = await book();

    expect(settled).toMatchObject({ step: 'promo_redeemed', status: 'pending' });
    expect(harness.client.callsTo(SUBJECTS.ACCOUNTING_HOLD_CAPTURE)[0].error).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });

    answerNormally();
    // Recovery takes over the saga whose lease was given back (here or in the service's own timer).
    const deadline = Date.now() + 20_000;
    let current = (await bookings.find(created.id))!;
    while (current.step !== 'done' && Date.now() < deadline) {
      await saga.recover();
      current = (await bookings.find(created.id))!;
      if (current.step !== 'done') await new Promise((resolve) => setTimeout(resolve, 100));
    }

    expect(current).toMatchObject({ step: 'done', status: 'confirmed' });
    // The steps done before are not done again: one hold, one supplier booking, one capture that succeeded.
    expect(harness.client.callsTo(SUBJECTS.ACCOUNTING_HOLD_PLACE)).toHaveLength(1);
    expect(harness.client.callsTo(SUBJECTS.RATES_SUPPLIER_BOOK)).toHaveLength(1);
    expect(harness.client.callsTo(SUBJECTS.ACCOUNTING_HOLD_CAPTURE).filter((call) => call.reply)).toHaveLength(1);
  });
});
