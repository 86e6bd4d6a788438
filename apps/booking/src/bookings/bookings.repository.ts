import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { BookingListQuery, BookingRoom, HotelDetails, HotelRate, OfferKeyWire, PaymentMethod, TestScenario } from '@hotel/contracts';
import { DomainError, SERVICE_ENV, rowsOf } from '@hotel/platform';
import { BookingEnv } from '../booking.env';

/**
 * A booking's saga, step by step. Booking: created → (charging →) funds_held →
 * (supplier_pending →) supplier_booked → promo_redeemed → done, or on a failure
 * compensating → failed. Cancellation of a done booking: cancelling (penalty
 * fixed) → refunding → cancelled. done, failed and cancelled are final.
 */
export type SagaStep =
  | 'created'
  | 'charging'
  | 'funds_held'
  | 'supplier_pending'
  | 'supplier_booked'
  | 'promo_redeemed'
  | 'done'
  | 'compensating'
  | 'failed'
  | 'cancelling'
  | 'refunding'
  | 'cancelled';

export const FINAL_STEPS: readonly SagaStep[] = ['done', 'failed', 'cancelled'];
export const CANCELLATION_STEPS: readonly SagaStep[] = ['cancelling', 'refunding', 'cancelled'];

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
  /** The card payment's idempotency key, recorded before the card is charged. */
  payment_key: string | null;
  supplier_reference: string | null;
  booking_reference: string[];
  failure_code: string | null;
  failure_reason: string | null;
  cancellation_reference: string | null;
  cancellation_penalty: string | null;
  created_at: Date;
  updated_at: Date;
}

export type BookingChanges = Partial<
  Pick<
    BookingRow,
    'status' | 'cc_payment_id' | 'payment_key' | 'supplier_reference' | 'booking_reference' | 'failure_code' | 'failure_reason' | 'cancellation_reference'
  > & { cancelled_at: Date }
>;

export type NewBooking = Omit<
  BookingRow,
  | 'id'
  | 'status'
  | 'step'
  | 'cc_payment_id'
  | 'payment_key'
  | 'supplier_reference'
  | 'booking_reference'
  | 'failure_code'
  | 'failure_reason'
  | 'cancellation_reference'
  | 'cancellation_penalty'
  | 'created_at'
  | 'updated_at'
>;

/**
 * Which of a client's bookings a caller reaches: an API key its own world's
 * (sandbox or live), a user token its user's, the backend token all of them.
 * Null means "any".
 */
export interface BookingScope {
  clientId: number;
  sandbox: boolean | null;
  userId: number | null;
}

/**
 * Every column a BookingRow has, by name: never `*`, whose result type changes when a
 * migration adds a column and then breaks the statements running replicas have prepared
 * ("cached plan must not change result type").
 */
const COLUMNS = [
  'id, client_id, user_id, sandbox, status, step, prebook_id, offer, payment_method, hotel_id, hotel_name',
  `to_char(check_in, 'YYYY-MM-DD') AS check_in, to_char(check_out, 'YYYY-MM-DD') AS check_out`,
  'first_name, last_name, email, phone, price_chargeable, price_currency, rate, hotel, rooms, language',
  'loyalty_number, special_request, remarks, client_reference, idempotency_key, request_fingerprint',
  'promo_code, promo_discount, test_scenario, cc_payment_id, payment_key, supplier_reference, booking_reference',
  'failure_code, failure_reason, cancellation_reference, cancellation_penalty, created_at, updated_at',
].join(', ');

/** The list's sort keys and the column each means (the DTO allows only these keys). */
const SORT_COLUMNS: Record<NonNullable<BookingListQuery['sort_by']>, string> = {
  id: 'id',
  created_at: 'created_at',
  check_in: 'check_in',
  check_out: 'check_out',
  price_chargeable: 'price_chargeable',
  hotel_name: 'hotel_name',
  status: 'status',
};

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
   * races: a second booking with the client's client_reference or idempotency_key,
   * or a second live booking of one prebook, fails.
   */
  async insert(booking: NewBooking, idempotencyHours: number): Promise<BookingRow> {
    // An idempotency key is kept 24 hours; an older one is free again.
    if (booking.idempotency_key) {
      await this.dataSource.query(
        `UPDATE booking.bookings SET idempotency_key = NULL
          WHERE client_id = $1 AND sandbox = $2 AND coalesce(user_id, 0) = coalesce($3::int, 0) AND idempotency_key = $4 AND idempotency_expires_at < now()`,
        [booking.client_id, booking.sandbox, booking.user_id, booking.idempotency_key],
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
      if (constraint === 'bookings_one_per_prebook') {
        const existing = await this.liveBookingOfPrebook(booking.prebook_id);
        throw new DomainError('PREBOOK_ALREADY_BOOKED', `prebook already booked: booking ${existing ?? 'unknown'}; prebook again for another booking`);
      }
      throw error;
    }
  }

  /** The booking (not failed) that a prebook backs, if any. */
  async liveBookingOfPrebook(prebookId: string): Promise<number | null> {
    const rows: { id: number }[] = await this.dataSource.query(
      `SELECT id FROM booking.bookings WHERE prebook_id = $1 AND status <> 'failed' AND NOT legacy_prebook_reuse`,
      [prebookId],
    );
    return rows[0]?.id ?? null;
  }

  async find(id: number): Promise<BookingRow | null> {
    const rows: BookingRow[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM booking.bookings WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  /** A booking the caller may see (see {@link BookingScope}). */
  async findInScope(scope: BookingScope, id: number): Promise<BookingRow | null> {
    const rows: BookingRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM booking.bookings
        WHERE client_id = $1 AND id = $2 AND ($3::boolean IS NULL OR sandbox = $3) AND ($4::int IS NULL OR user_id = $4)`,
      [scope.clientId, id, scope.sandbox, scope.userId],
    );
    return rows[0] ?? null;
  }

  /** The booking an idempotency key made, within its owner's key space: client, sandbox or live, user. */
  async findByIdempotencyKey(owner: { clientId: number; sandbox: boolean; userId: number | null }, key: string): Promise<BookingRow | null> {
    const rows: BookingRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM booking.bookings
        WHERE client_id = $1 AND sandbox = $2 AND coalesce(user_id, 0) = coalesce($3::int, 0) AND idempotency_key = $4 AND idempotency_expires_at >= now()`,
      [owner.clientId, owner.sandbox, owner.userId, key],
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

  /** One page of the bookings in a scope, filtered and sorted: by created_at (default), check-in, check-out, price, hotel name or status. */
  async list(scope: BookingScope, query: BookingListQuery, options: { excludeFailed?: boolean } = {}): Promise<{ rows: BookingRow[]; total: number }> {
    const where = ['client_id = $1'];
    if (options.excludeFailed) where.push(`status <> 'failed'`);
    const values: unknown[] = [scope.clientId];
    const add = (clause: (placeholder: string) => string, value: unknown) => {
      values.push(value);
      where.push(clause(`$${values.length}`));
    };
    if (scope.userId !== null) add((p) => `user_id = ${p}`, scope.userId);
    if (scope.sandbox !== null) add((p) => `sandbox = ${p}`, scope.sandbox);
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
    const sortColumn = SORT_COLUMNS[query.sort_by ?? 'created_at'];
    if (!sortColumn) throw DomainError.validation([{ field: 'sort_by', message: `sort_by must be one of ${Object.keys(SORT_COLUMNS).join(', ')}` }]);
    const direction = query.sort_order === 'asc' ? 'ASC' : 'DESC';
    const limit = query.limit ?? 50;
    const offset = ((query.page ?? 1) - 1) * limit;
    const whereSql = where.join(' AND ');
    // LIMIT and OFFSET are parameters: one prepared statement per filter and sort shape,
    // not one per page (each would stay prepared on its connection).
    const paging = values.length;
    const [rows, counts] = await Promise.all([
      this.dataSource.query(
        `SELECT ${COLUMNS} FROM booking.bookings WHERE ${whereSql} ORDER BY booking.bookings.${sortColumn} ${direction}, booking.bookings.id ${direction} LIMIT $${paging + 1} OFFSET $${paging + 2}`,
        [...values, limit, offset],
      ) as Promise<BookingRow[]>,
      this.dataSource.query(`SELECT count(*)::int AS total FROM booking.bookings WHERE ${whereSql}`, values) as Promise<{ total: number }[]>,
    ]);
    return { rows, total: counts[0].total };
  }

  /**
   * Starts the cancellation of a confirmed booking, once: the penalty is fixed
   * now and the caller holds the saga's lease. Null when another request started it first.
   */
  async startCancellation(booking: BookingRow, penalty: string): Promise<BookingRow | null> {
    const rows = rowsOf<Pick<BookingRow, 'step' | 'updated_at' | 'cancellation_penalty'>>(
      await this.dataSource.query(
        `UPDATE booking.bookings SET step = 'cancelling', cancellation_penalty = $2, updated_at = now(),
                lease_until = now() + make_interval(secs => ${this.leaseSeconds})
          WHERE id = $1 AND step = 'done' AND status = 'confirmed' RETURNING step, updated_at, cancellation_penalty`,
        [booking.id, penalty],
      ),
    );
    return rows.length ? { ...booking, ...rows[0] } : null;
  }

  /** Takes over one unfinished saga whose lease ran out (its worker died); null when it is leased or finished. */
  async claim(id: number): Promise<BookingRow | null> {
    const rows: BookingRow[] = rowsOf(
      await this.dataSource.query(
        `UPDATE booking.bookings SET lease_until = now() + make_interval(secs => ${this.leaseSeconds})
          WHERE id = $1 AND step NOT IN ('done', 'failed', 'cancelled') AND lease_until < now()
          RETURNING ${COLUMNS}`,
        [id],
      ),
    );
    return rows[0] ?? null;
  }

  /** Gives a saga back after a step failed for now: the next recovery pass retries it. */
  async releaseLease(id: number): Promise<void> {
    await this.dataSource.query(`UPDATE booking.bookings SET lease_until = now() WHERE id = $1 AND step NOT IN ('done', 'failed', 'cancelled')`, [id]);
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
                        WHERE step NOT IN ('done', 'failed', 'cancelled') AND lease_until < now()
                        ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
          RETURNING id`,
        [limit],
      ),
    );
    return rows.map((row) => row.id);
  }
}
