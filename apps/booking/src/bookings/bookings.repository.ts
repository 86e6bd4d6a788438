import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { BookingListQuery, BookingRoom, HotelDetails, HotelRate, OfferKeyWire, PaymentMethod, TestScenario } from '@hotel/contracts';
import { DomainError, SERVICE_ENV, rowsOf } from '@hotel/platform';
import { BookingEnv } from '../booking.env';

export type SagaStep = 'created' | 'funds_held' | 'supplier_pending' | 'supplier_booked' | 'promo_redeemed' | 'done' | 'compensating' | 'failed';

export interface BookingRow {
  id: number;
  client_id: number;
  user_id: number | null;
  sandbox: boolean;
  status: 'pending' | 'confirmed' | 'failed' | 'cancelled';
  step: SagaStep;
  prebook_id: string;
  offer: OfferKeyWire;
  payment_method: PaymentMethod;
  hotel_id: number;
  hotel_name: string;
  check_in: string;
  check_out: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  price_chargeable: string;
  price_currency: string;
  rate: HotelRate;
  hotel: HotelDetails;
  rooms: BookingRoom[];
  language: string;
  loyalty_number: string | null;
  special_request: string | null;
  remarks: string;
  client_reference: string | null;
  idempotency_key: string | null;
  request_fingerprint: string;
  promo_code: string | null;
  promo_discount: string;
  test_scenario: TestScenario | null;
  cc_payment_id: string | null;
  supplier_reference: string | null;
  booking_reference: string[];
  failure_code: string | null;
  failure_reason: string | null;
  cancellation_reference: string | null;
  cancellation_penalty: string | null;
  created_at: Date;
  updated_at: Date;
}

export type BookingChanges = Partial<Pick<BookingRow, 'status' | 'cc_payment_id' | 'supplier_reference' | 'booking_reference' | 'failure_code' | 'failure_reason'>>;

export type NewBooking = Omit<
  BookingRow,
  | 'id'
  | 'status'
  | 'step'
  | 'cc_payment_id'
  | 'supplier_reference'
  | 'booking_reference'
  | 'failure_code'
  | 'failure_reason'
  | 'cancellation_reference'
  | 'cancellation_penalty'
  | 'created_at'
  | 'updated_at'
>;

const COLUMNS = `*, to_char(check_in, 'YYYY-MM-DD') AS check_in, to_char(check_out, 'YYYY-MM-DD') AS check_out`;

@Injectable()
export class BookingsRepository {
  /** How long one worker owns a booking's saga before another may take it over. */
  private readonly leaseSeconds: number;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(SERVICE_ENV) env: BookingEnv,
  ) {
    this.leaseSeconds = env.SAGA_LEASE_S;
  }

  /**
   * Inserts a pending booking, leased to the caller. The unique indexes decide
   * races: a second booking with the client's client_reference or idempotency_key fails.
   */
  async insert(booking: NewBooking, idempotencyHours: number): Promise<BookingRow> {
    // An idempotency key is kept 24 hours; an older one is free again.
    if (booking.idempotency_key) {
      await this.dataSource.query(
        `UPDATE booking.bookings SET idempotency_key = NULL WHERE client_id = $1 AND idempotency_key = $2 AND idempotency_expires_at < now()`,
        [booking.client_id, booking.idempotency_key],
      );
    }
    try {
      const rows: BookingRow[] = await this.dataSource.query(
        `INSERT INTO booking.bookings (client_id, user_id, sandbox, status, step, lease_until, prebook_id, offer, payment_method, hotel_id, hotel_name,
           check_in, check_out, first_name, last_name, email, phone, price_chargeable, price_currency, rate, hotel, rooms, language,
           loyalty_number, special_request, client_reference, idempotency_key, idempotency_expires_at, request_fingerprint, promo_code, remarks,
           promo_discount, test_scenario)
         VALUES ($1, $2, $3, 'pending', 'created', now() + make_interval(secs => ${this.leaseSeconds}), $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14,
           $15, $16, $17, $18, $19, $20, $21, $22, $23, $24,
           CASE WHEN $24::text IS NULL THEN NULL ELSE now() + make_interval(hours => $27) END, $25, $26, $28, $29, $30)
         RETURNING ${COLUMNS}`,
        [
          booking.client_id, booking.user_id, booking.sandbox, booking.prebook_id, JSON.stringify(booking.offer), booking.payment_method,
          booking.hotel_id, booking.hotel_name, booking.check_in, booking.check_out, booking.first_name, booking.last_name, booking.email,
          booking.phone, booking.price_chargeable, booking.price_currency, JSON.stringify(booking.rate), JSON.stringify(booking.hotel),
          JSON.stringify(booking.rooms), booking.language, booking.loyalty_number, booking.special_request, booking.client_reference,
          booking.idempotency_key, booking.request_fingerprint, booking.promo_code, idempotencyHours, booking.remarks, booking.promo_discount, booking.test_scenario,
        ],
      );
      return rows[0];
    } catch (error) {
      const constraint = (error as { driverError?: { constraint?: string } }).driverError?.constraint;
      if (constraint === 'bookings_client_reference') throw new DomainError('DUPLICATE_CLIENT_REFERENCE', 'duplicate client_reference');
      if (constraint === 'bookings_idempotency_key') throw new DomainError('CONFLICT', 'idempotency_key in use');
      throw error;
    }
  }

  async find(id: number): Promise<BookingRow | null> {
    const rows: BookingRow[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM booking.bookings WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  async findForClient(clientId: number, id: number): Promise<BookingRow | null> {
    const rows: BookingRow[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM booking.bookings WHERE client_id = $1 AND id = $2`, [clientId, id]);
    return rows[0] ?? null;
  }

  async findByIdempotencyKey(clientId: number, key: string): Promise<BookingRow | null> {
    const rows: BookingRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM booking.bookings WHERE client_id = $1 AND idempotency_key = $2 AND idempotency_expires_at >= now()`,
      [clientId, key],
    );
    return rows[0] ?? null;
  }

  /**
   * Records a saga step, only from the step the caller saw (so two workers never
   * both advance it); the updated booking, or null when another worker moved it.
   * Only what changed comes back from the database: the rest of the row (hotel,
   * rate, rooms: most of its bytes) is the caller's copy.
   */
  async advance(booking: BookingRow, to: SagaStep, changes: BookingChanges = {}): Promise<BookingRow | null> {
    const sets = ['step = $3', 'updated_at = now()', `lease_until = now() + make_interval(secs => ${this.leaseSeconds})`];
    const values: unknown[] = [booking.id, booking.step, to];
    for (const [column, value] of Object.entries(changes)) {
      values.push(value);
      sets.push(`${column} = $${values.length}`);
    }
    const rows = rowsOf<Pick<BookingRow, 'step' | 'updated_at'>>(
      await this.dataSource.query(`UPDATE booking.bookings SET ${sets.join(', ')} WHERE id = $1 AND step = $2 RETURNING step, updated_at`, values),
    );
    return rows.length ? { ...booking, ...changes, ...rows[0] } : null;
  }

  /** One page of a client's (or one user's) bookings, filtered and sorted (decisions §7). */
  async list(clientId: number, userId: number | null, query: BookingListQuery, options: { excludeFailed?: boolean } = {}): Promise<{ rows: BookingRow[]; total: number }> {
    const where = ['client_id = $1'];
    if (options.excludeFailed) where.push(`status <> 'failed'`);
    const values: unknown[] = [clientId];
    const add = (clause: (placeholder: string) => string, value: unknown) => {
      values.push(value);
      where.push(clause(`$${values.length}`));
    };
    if (userId !== null) add((p) => `user_id = ${p}`, userId);
    if (query.id !== undefined) add((p) => `id = ${p}`, query.id);
    if (query.hotel_name) add((p) => `hotel_name ILIKE ${p}`, `%${query.hotel_name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    if (query.first_name) add((p) => `lower(first_name) = lower(${p})`, query.first_name);
    if (query.last_name) add((p) => `lower(last_name) = lower(${p})`, query.last_name);
    if (query.status) add((p) => `status = ${p}`, query.status);
    if (query.payment_method) add((p) => `payment_method = ${p}`, query.payment_method);
    if (query.vendor_reference) add((p) => `booking_reference @> ARRAY[${p}::text]`, query.vendor_reference);
    if (query.client_reference) add((p) => `client_reference = ${p}`, query.client_reference);
    for (const field of ['check_in', 'check_out', 'created_at'] as const) {
      const filter = query[field];
      if (!filter) continue;
      const [from, to = from] = filter.split('..');
      if (field === 'created_at') {
        add((p) => `created_at >= ${p}::date`, from);
        add((p) => `created_at < ${p}::date + 1`, to);
      } else {
        add((p) => `${field} >= ${p}::date`, from);
        add((p) => `${field} <= ${p}::date`, to);
      }
    }
    const sortColumn = query.sort_by ?? 'created_at';
    const direction = query.sort_order === 'asc' ? 'ASC' : 'DESC';
    const limit = query.limit ?? 50;
    const offset = ((query.page ?? 1) - 1) * limit;
    const whereSql = where.join(' AND ');
    const [rows, counts] = await Promise.all([
      this.dataSource.query(
        `SELECT ${COLUMNS} FROM booking.bookings WHERE ${whereSql} ORDER BY booking.bookings.${sortColumn} ${direction}, booking.bookings.id ${direction} LIMIT ${limit} OFFSET ${offset}`,
        values,
      ) as Promise<BookingRow[]>,
      this.dataSource.query(`SELECT count(*)::int AS total FROM booking.bookings WHERE ${whereSql}`, values) as Promise<{ total: number }[]>,
    ]);
    return { rows, total: counts[0].total };
  }

  /** Marks a confirmed booking cancelled (once): false when another request did it first. */
  async markCancelled(id: number, reference: string, penalty: string): Promise<boolean> {
    const rows = rowsOf(
      await this.dataSource.query(
        `UPDATE booking.bookings SET status = 'cancelled', cancellation_reference = $2, cancellation_penalty = $3, cancelled_at = now(), updated_at = now()
          WHERE id = $1 AND status = 'confirmed' RETURNING id`,
        [id, reference, penalty],
      ),
    );
    return rows.length === 1;
  }

  /** Leaves a saga waiting (a pending supplier) until another worker may look again. */
  async extendLease(id: number): Promise<void> {
    await this.dataSource.query(`UPDATE booking.bookings SET lease_until = now() + make_interval(secs => ${this.leaseSeconds}) WHERE id = $1`, [id]);
  }

  /** Unfinished sagas whose lease ran out (their worker died): taken over with a new lease. */
  async claimAbandoned(limit: number): Promise<number[]> {
    const rows = rowsOf<{ id: number }>(
      await this.dataSource.query(
        `UPDATE booking.bookings SET lease_until = now() + make_interval(secs => ${this.leaseSeconds})
          WHERE id IN (SELECT id FROM booking.bookings
                        WHERE step NOT IN ('done', 'failed') AND lease_until < now()
                        ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
          RETURNING id`,
        [limit],
      ),
    );
    return rows.map((row) => row.id);
  }
}
