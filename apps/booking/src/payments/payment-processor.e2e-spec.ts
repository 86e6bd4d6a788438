import { DataSource } from 'typeorm';
import { openServiceDataSource, serviceDataSourceOptions } from '@hotel/platform';
import { TestDatabase, createTestDatabase } from '@hotel/testing';
import { BOOKING_ENTITIES, BOOKING_MIGRATIONS } from '../booking-app.module';
import { SandboxPaymentProcessor } from './payment-processor';

const VISA = { token: 'tok_visa', expiration: '12/40' };
const usd = (amount: string) => ({ amount, currency: 'USD' });

/** The sandbox processor on a real database: every money call is idempotent by its key. */
describe('sandbox payment processor', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let processor: SandboxPaymentProcessor;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openServiceDataSource(
      new DataSource(serviceDataSourceOptions({ schema: 'booking', url: database.url, poolSize: 4, entities: BOOKING_ENTITIES, migrations: BOOKING_MIGRATIONS })),
      'booking',
    );
    processor = new SandboxPaymentProcessor(dataSource);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const count = async (table: string) => Number((await dataSource.query(`SELECT count(*) AS n FROM booking.${table}`))[0].n);

  it('charges once per key, also when the same charge races itself', async () => {
    const charges = await Promise.all(Array.from({ length: 10 }, () => processor.charge('k-1', VISA, usd('120.50'))));
    expect(new Set(charges.map((charge) => charge.paymentId)).size).toBe(1);
    expect(charges[0]).toEqual({ paymentId: expect.any(String), amount: '120.50' });
    expect(await processor.closeKey('k-1', usd('120.50'))).toEqual(charges[0]);
  });

  it('declines the decline tokens and records nothing', async () => {
    await expect(processor.charge('k-2', { ...VISA, token: 'tok_declined' }, usd('10.00'))).rejects.toMatchObject({ code: 'PAYMENT_DECLINED', message: 'card declined' });
    expect(await processor.closeKey('k-2', usd('10.00'))).toBeNull();
  });

  it('refuses a charge under a key that was closed before it charged', async () => {
    expect(await processor.closeKey('k-3', usd('10.00'))).toBeNull();
    await expect(processor.charge('k-3', VISA, usd('10.00'))).rejects.toMatchObject({ code: 'PAYMENT_DECLINED' });
  });

  it('refunds once per key, and never more than was charged', async () => {
    const { paymentId } = await processor.charge('k-4', VISA, usd('100.00'));
    const before = await count('sandbox_card_refunds');
    await Promise.all(Array.from({ length: 10 }, () => processor.refund(paymentId, usd('60.00'), 'r-4')));
    expect((await count('sandbox_card_refunds')) - before).toBe(1);
    await expect(processor.refund(paymentId, usd('60.00'), 'r-4b')).rejects.toMatchObject({ code: 'CONFLICT' });
    await processor.refund(paymentId, usd('40.00'), 'r-4c');
    expect((await count('sandbox_card_refunds')) - before).toBe(2);
  });
});
