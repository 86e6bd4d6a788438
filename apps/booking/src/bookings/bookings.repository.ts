import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, EntityManager, QueryFailedError, SelectQueryBuilder } from 'typeorm';
import { BookingListFilter, BookingSortKey } from '@hotel/contracts';
import { DomainError, SERVICE_ENV, getPage, getRawPage } from '@hotel/platform';
import { BookingEnv } from '../booking.env';
import { BookingEventsOutbox } from '../events/booking-events-outbox';
import { BookingEntity, FINAL_STEPS, SagaStep } from './booking.entity';
import { StoredViews, storedViewsOf } from './stored-views';
import { WorkerLiveness, leaseHolderGone } from './worker-liveness';

/** What a saga step may record beside the step itself. */
export type BookingChanges = Partial<
  Pick<
    BookingEntity,
    | 'status'
    | 'ccPaymentId'
    | 'paymentKey'
    | 'paymentProcessor'
    | 'supplierReference'
    | 'bookingReference'
    | 'failureCode'
    | 'failureReason'
    | 'cancellationReference'
    | 'cancellationPenalty'
    | 'cancelledAt'
  >
>;

/** A booking as the booking service creates it; the saga fills the rest. */
export type NewBooking = Omit<
  BookingEntity,
  | 'id'
  | 'status'
  | 'step'
  | 'leaseUntil'
  | 'leaseHolder'
  | 'idempotencyExpiresAt'
  | 'ccPaymentId'
  | 'paymentKey'
  | 'paymentProcessor'
  | 'supplierReference'
  | 'bookingReference'
  | 'failureCode'
  | 'failureReason'
  | 'cancellationReference'
  | 'cancellationPenalty'
  | 'cancelledAt'
  | 'legacyPrebookReuse'
  | 'eventSequence'
  | 'apiView'
  | 'backendView'
  | 'viewsAt'
  | 'createdAt'
  | 'updatedAt'
>;

/** A booking of a page as stored: its id, when it last moved, and one of its stored representations (current). */
export interface StoredBooking {
  id: number;
  updatedAt: Date;
  view: string;
}

/** Changes that alter what a booking's list representations show: a move with one of them stores the representations again. */
const SHOWN_CHANGES: readonly (keyof BookingChanges)[] = ['status', 'bookingReference', 'failureReason', 'cancellationReference', 'cancellationPenalty', 'cancelledAt'];

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

/** Whose key space an idempotency key lives in: client, sandbox or live, user. */
export interface IdempotencyKeyOwner {
  clientId: number;
  sandbox: boolean;
  userId: number | null;
}

/** The list's sort keys and the property each means (the filter's validation allows only these keys). */
const SORT_PROPERTIES: Record<BookingSortKey, keyof BookingEntity> = {
  id: 'id',
  createdAt: 'createdAt',
  checkIn: 'checkIn',
  checkOut: 'checkOut',
  priceChargeable: 'priceChargeable',
  hotelName: 'hotelName',
  status: 'status',
};

/** Steps after which a saga has nothing left to do. */
const unfinished = (alias = '') => `${alias}step NOT IN (${FINAL_STEPS.map((step) => `'${step}'`).join(', ')})`;

/**
 * Bookings (`booking.bookings`) through TypeORM's query builder: explicit columns
 * (the entity's, never `*`), bound parameters, LIMIT and OFFSET as parameters. Each
 * saga step is one conditional UPDATE from the step its caller saw, so two workers
 * never both advance a booking. A status change writes its booking event in the
 * same transaction (the outbox, see BookingEventsOutbox).
 */
@Injectable()
export class BookingsRepository {
  /** `now() + <lease>`: how long one worker owns a booking's saga before another may take it over (a number from the config). */
  private readonly leaseEnd: () => string;

  /** One line (info) per booking created and per change of its status: what an operator reads to explain a request. */
  private readonly logger = new Logger('Bookings');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(SERVICE_ENV) env: BookingEnv,
    private readonly events: BookingEventsOutbox,
    private readonly liveness: WorkerLiveness,
  ) {
    const seconds = Math.trunc(env.SAGA_LEASE_S);
    this.leaseEnd = () => `now() + make_interval(secs => ${seconds})`;
  }

  /** A lease of this worker's from now: until when, and who holds it. */
  private get lease() {
    return { leaseUntil: this.leaseEnd, leaseHolder: this.liveness.instance };
  }

  /**
   * Reconciliation's view of a client's live bookings, in id order after `after`: those
   * created in [start, end), or (with `ids`) exactly those.
   */
  async reconciliationPage(clientId: number, after: number, limit: number, period: { start: Date; end: Date } | { ids: number[] }): Promise<BookingEntity[]> {
    const query = this.select()
      .select([
        'b.id',
        'b.status',
        'b.step',
        'b.paymentMethod',
        'b.sandbox',
        'b.priceChargeable',
        'b.priceCurrency',
        'b.cancellationPenalty',
        // BookingFx: reconciliation and the ledger's exports show how the price was converted.
        'b.vendorCurrency',
        'b.vendorPrice',
        'b.fxRate',
        'b.fxRateDate',
        'b.fxMarginPercent',
      ])
      .where('b.clientId = :clientId AND b.sandbox = false AND b.id > :after', { clientId, after })
      .orderBy('b.id', 'ASC');
    if ('ids' in period) query.andWhere('b.id = ANY(:ids)', { ids: period.ids });
    else query.andWhere('b.createdAt >= :start AND b.createdAt < :end', period);
    return getPage(query, limit, 0);
  }

  private get bookings() {
    return this.dataSource.getRepository(BookingEntity);
  }

  private select(): SelectQueryBuilder<BookingEntity> {
    return this.bookings.createQueryBuilder('b');
  }

  /**
   * Inserts a pending booking, leased to the caller, with its booking.created
   * event (one transaction). The unique indexes decide races: a second booking
   * with its owner's client_reference or idempotency_key (the client's keys', or one
   * user's, in one world), or a second live booking of one prebook, fails.
   */
  async insert(booking: NewBooking, idempotencyHours: number): Promise<BookingEntity> {
    // An idempotency key is kept for a while; an older one is free again.
    if (booking.idempotencyKey) {
      await this.bookings
        .createQueryBuilder()
        .update()
        .set({ idempotencyKey: null })
        .where(ownedBy(booking))
        .andWhere('idempotency_key = :key AND idempotency_expires_at < now()', { key: booking.idempotencyKey })
        .execute();
    }
    const hours = Math.trunc(idempotencyHours);
    try {
      const row = await this.dataSource.transaction(async (manager) => {
        // The id and the transaction's time first: the row is written once, with its
        // representations (which carry both) in it, not inserted and then rewritten.
        const [allocated] = (await manager.query(`SELECT nextval('booking.bookings_id_seq')::int AS id, now() AS at`)) as { id: number; at: Date }[];
        const created: BookingEntity = {
          ...booking,
          id: allocated.id,
          status: 'pending',
          step: 'created',
          ccPaymentId: null,
          paymentKey: null,
          paymentProcessor: null,
          supplierReference: null,
          bookingReference: [],
          failureCode: null,
          failureReason: null,
          cancellationReference: null,
          cancellationPenalty: null,
          cancelledAt: null,
          // created_at and updated_at default to now(): this transaction's time, as read above.
          createdAt: allocated.at,
          updatedAt: allocated.at,
        };
        await manager
          .getRepository(BookingEntity)
          .createQueryBuilder()
          .insert()
          .values({
            ...booking,
            id: created.id,
            status: 'pending',
            step: 'created',
            ...this.lease,
            idempotencyExpiresAt: booking.idempotencyKey ? () => `now() + make_interval(hours => ${hours})` : null,
            bookingReference: [],
            eventSequence: 1,
            ...storedViewsOf(created),
            viewsAt: () => 'now()',
          })
          .updateEntity(false)
          .execute();
        await this.events.record(manager, created, 1);
        return created;
      });
      this.events.committed();
      this.logger.log({ msg: 'booking created', bookingId: row.id, clientId: row.clientId, userId: row.userId, sandbox: row.sandbox, paymentMethod: row.paymentMethod });
      return row;
    } catch (error) {
      const constraint = error instanceof QueryFailedError ? (error.driverError as { constraint?: string }).constraint : undefined;
      if (constraint === 'bookings_client_reference') throw new DomainError('DUPLICATE_CLIENT_REFERENCE', 'duplicate clientReference');
      if (constraint === 'bookings_idempotency_key') throw new DomainError('CONFLICT', 'idempotencyKey in use');
      if (constraint === 'bookings_one_per_prebook') {
        const existing = await this.liveBookingOfPrebook(booking.prebookId);
        throw new DomainError('PREBOOK_ALREADY_BOOKED', `prebook already booked: booking ${existing ?? 'unknown'}; prebook again for another booking`);
      }
      throw error;
    }
  }

  /** The booking (not failed) that a prebook backs, if any. */
  async liveBookingOfPrebook(prebookId: string): Promise<number | null> {
    const booking = await this.select()
      .select('b.id')
      .where('b.prebookId = :prebookId', { prebookId })
      .andWhere(`b.status <> 'failed' AND NOT b.legacyPrebookReuse`)
      .getOne();
    return booking?.id ?? null;
  }

  async find(id: number): Promise<BookingEntity | null> {
    return this.select().where('b.id = :id', { id }).getOne();
  }

  /** A booking the caller may see (see {@link BookingScope}). */
  async findInScope(scope: BookingScope, id: number): Promise<BookingEntity | null> {
    return inScope(this.select(), scope).andWhere('b.id = :id', { id }).getOne();
  }

  /** The booking an idempotency key made, within its owner's key space, while the key is kept. */
  async findByIdempotencyKey(owner: IdempotencyKeyOwner, key: string): Promise<BookingEntity | null> {
    return this.select()
      .where(ownedBy(owner, 'b.'))
      .andWhere('b.idempotencyKey = :key AND b.idempotencyExpiresAt >= now()', { key })
      .getOne();
  }

  /**
   * Records a saga step, only from the step the caller saw (so two workers never
   * both advance it); the updated booking, or null when another worker moved it.
   * Only what changed comes back from the database: the rest of the row (hotel,
   * rate, rooms: most of its bytes) is the caller's copy. A step that changes the
   * status writes the booking's event in the same transaction (and counts it in
   * `event_sequence`); a step that loses the race writes none.
   */
  async advance(booking: BookingEntity, to: SagaStep, changes: BookingChanges = {}): Promise<BookingEntity | null> {
    if (changes.status === undefined || changes.status === booking.status) return (await this.move(this.dataSource.manager, booking, to, changes))?.booking ?? null;
    const moved = await this.dataSource.transaction(async (manager) => {
      const next = await this.move(manager, booking, to, changes, true);
      if (next) await this.events.record(manager, next.booking, next.eventSequence);
      return next?.booking ?? null;
    });
    if (moved) {
      this.events.committed();
      this.logger.log({ msg: `booking ${moved.status}`, bookingId: moved.id, step: moved.step, ...(moved.failureCode && { failureCode: moved.failureCode, failureReason: moved.failureReason }) });
    }
    return moved;
  }

  /** The moved booking and its event_sequence after the move; null when the step was no longer the caller's. */
  private async move(
    manager: EntityManager,
    booking: BookingEntity,
    to: SagaStep,
    changes: BookingChanges,
    newEvent = false,
  ): Promise<{ booking: BookingEntity; eventSequence: number } | null> {
    // What the lists show changes: its representations are stored again by the same statement
    // (rendered from the caller's copy and the changes: the step guard makes that copy the row's).
    const views: StoredViews | undefined = SHOWN_CHANGES.some((field) => changes[field] !== undefined) ? storedViewsOf({ ...booking, ...changes }) : undefined;
    const result = await manager
      .getRepository(BookingEntity)
      .createQueryBuilder()
      .update()
      .set({
        ...changes,
        step: to,
        updatedAt: () => 'now()',
        ...this.lease,
        ...(newEvent && { eventSequence: () => 'event_sequence + 1' }),
        ...views,
        // Stored again: current as of this move; not: still current if they were (nothing they show changed).
        viewsAt: views ? () => 'now()' : () => 'CASE WHEN views_at = updated_at THEN now() END',
      })
      .where('id = :id AND step = :from', { id: booking.id, from: booking.step })
      .returning(['step', 'updatedAt', 'eventSequence'])
      .updateEntity(false)
      .execute();
    const [row] = result.raw as { step: SagaStep; updated_at: Date; event_sequence: number }[];
    if (!row) return null;
    return { booking: { ...booking, ...changes, step: row.step, updatedAt: row.updated_at }, eventSequence: row.event_sequence };
  }

  /**
   * One page of the bookings in a scope, filtered and sorted (by created_at by default,
   * check-in, check-out, price, hotel name or status), each booking as one of its stored representations
   * (`api` the Booking with its slots, `backend` the BackendBooking): only the id,
   * updated_at and the stored text are read. A booking without them (made before they
   * were stored, or whose rendering changed since) is rendered from its row now and
   * stored, unless a change stored them meanwhile.
   */
  async storedPage(scope: BookingScope, filter: BookingListFilter, kind: 'api' | 'backend', options: { excludeFailed?: boolean } = {}): Promise<{ rows: StoredBooking[]; total: number }> {
    const { page, filtered, limit, offset } = this.pageQuery(scope, filter, options);
    const selection = page
      .select('b.id', 'id')
      .addSelect('b.updatedAt', 'updated_at')
      .addSelect(kind === 'api' ? 'b.apiView' : 'b.backendView', 'view')
      .addSelect('b.viewsAt = b.updatedAt', 'current');
    const [raw, total, cursorFound] = await Promise.all([
      getRawPage<{ id: number; updated_at: Date; view: string | null; current: boolean | null }>(selection, limit, offset),
      this.countedTotal(scope, filter, options) ?? countOf(filtered),
      filter.after === undefined ? true : inScope(this.select(), scope).andWhere('b.id = :after', { after: filter.after }).getExists(),
    ]);
    if (!cursorFound) throw DomainError.validation([{ field: 'after', message: 'after must be the id of one of the bookings this list shows' }]);
    const stale = raw.filter((row) => !row.current || row.view === null).map((row) => row.id);
    const rendered = stale.length > 0 ? await this.storeCurrentViews(stale) : new Map<number, StoredViews & { updatedAt: Date }>();
    const rows = raw.map((row): StoredBooking => {
      const fresh = rendered.get(row.id);
      if (!fresh) return { id: row.id, updatedAt: row.updated_at, view: row.view! };
      return { id: row.id, updatedAt: fresh.updatedAt, view: kind === 'api' ? fresh.apiView : fresh.backendView };
    });
    return { rows, total };
  }

  /**
   * Renders and stores the representations of bookings whose stored ones are missing or
   * behind, in one transaction holding their rows (a move of one waits, so what is stored
   * is what its row says); those rendered, by id, with the `updated_at` they are of.
   */
  private async storeCurrentViews(ids: number[]): Promise<Map<number, StoredViews & { updatedAt: Date }>> {
    return this.dataSource.transaction(async (manager) => {
      const bookings = await manager.getRepository(BookingEntity).createQueryBuilder('b').where('b.id = ANY(:ids)', { ids }).orderBy('b.id').setLock('pessimistic_write').getMany();
      const rendered = new Map<number, StoredViews & { updatedAt: Date }>();
      for (const booking of bookings) {
        const views = storedViewsOf(booking);
        await manager.getRepository(BookingEntity).createQueryBuilder().update().set({ ...views, viewsAt: () => 'updated_at' }).where('id = :id', { id: booking.id }).updateEntity(false).execute();
        rendered.set(booking.id, { ...views, updatedAt: booking.updatedAt });
      }
      return rendered;
    });
  }

  /**
   * The total of a page filtered by nothing but its scope and status, from the counts the
   * triggers keep (migration 1764620000000): a sum over a few rows, not a count of every
   * matching booking. Undefined for any other filter: that total is counted.
   */
  private countedTotal(scope: BookingScope, filter: BookingListFilter, options: { excludeFailed?: boolean }): Promise<number> | undefined {
    if (Object.entries(filter).some(([key, value]) => value !== undefined && !COUNTED_BY.has(key))) return undefined;
    const counts = this.dataSource.createQueryBuilder().select('COALESCE(sum(c.bookings), 0)', 'total').from('booking.booking_counts', 'c').where('c.client_id = :clientId', { clientId: scope.clientId });
    if (scope.sandbox !== null) counts.andWhere('c.sandbox = :sandbox', { sandbox: scope.sandbox });
    if (scope.userId !== null) counts.andWhere('c.user_id = :userId', { userId: scope.userId });
    if (filter.status) counts.andWhere('c.status = :status', { status: filter.status });
    if (options.excludeFailed) counts.andWhere(`c.status <> 'failed'`);
    return counts.getRawOne<{ total: string }>().then((row) => Number(row?.total ?? 0));
  }

  /** The page query (ordered, not yet paged) and the filtered query its total counts. */
  private pageQuery(scope: BookingScope, filter: BookingListFilter, options: { excludeFailed?: boolean }) {
    const filtered = inScope(this.select(), scope);
    if (options.excludeFailed) filtered.andWhere(`b.status <> 'failed'`);
    if (filter.id !== undefined) filtered.andWhere('b.id = :id', { id: filter.id });
    if (filter.hotelName) filtered.andWhere('b.hotelName ILIKE :hotelName', { hotelName: `%${filter.hotelName.replace(/[\\%_]/g, (c) => `\\${c}`)}%` });
    if (filter.firstName) filtered.andWhere('lower(b.firstName) = lower(:firstName)', { firstName: filter.firstName });
    if (filter.lastName) filtered.andWhere('lower(b.lastName) = lower(:lastName)', { lastName: filter.lastName });
    if (filter.status) filtered.andWhere('b.status = :status', { status: filter.status });
    if (filter.paymentMethod) filtered.andWhere('b.paymentMethod = :paymentMethod', { paymentMethod: filter.paymentMethod });
    if (filter.vendorReference) filtered.andWhere('b.bookingReference @> ARRAY[:vendorReference::text]', { vendorReference: filter.vendorReference });
    if (filter.clientReference) filtered.andWhere('b.clientReference = :clientReference', { clientReference: filter.clientReference });
    for (const [range, property] of [[filter.checkIn, 'checkIn'], [filter.checkOut, 'checkOut'], [filter.createdOn, 'createdAt']] as const) {
      if (!range) continue;
      // createdAt is a moment: its range runs to the end of the last day.
      const upper = property === 'createdAt' ? `b.${property} < :${property}To::date + 1` : `b.${property} <= :${property}To::date`;
      filtered.andWhere(new Brackets((days) => days.where(`b.${property} >= :${property}From::date`).andWhere(upper)));
      filtered.setParameter(`${property}From`, range.from).setParameter(`${property}To`, range.to);
    }
    const sortProperty = SORT_PROPERTIES[filter.sortBy ?? 'createdAt'];
    if (!sortProperty) throw DomainError.validation([{ field: 'sortBy', message: `sortBy must be one of ${Object.keys(SORT_PROPERTIES).join(', ')}` }]);
    const direction = filter.sortOrder === 'asc' ? 'ASC' : 'DESC';
    const limit = filter.limit ?? 50;
    const offset = ((filter.page ?? 1) - 1) * limit;
    const page = filtered.clone().orderBy(`b.${sortProperty}`, direction).addOrderBy('b.id', direction);
    if (filter.after !== undefined) {
      // Keyset: the rows past the caller's last one in the same order, (sort value, id) compared
      // as a pair with the database's own values (microseconds, collation). The subquery reads
      // `after` in the caller's scope only (its b is the inner row; the scope's parameters are the
      // outer query's): another client's booking is no position (storedPage refuses it).
      const cursor = inScope(this.select(), scope).select(`b.${sortProperty}`).addSelect('b.id').andWhere('b.id = :after');
      page.andWhere(`(b.${sortProperty}, b.id) ${direction === 'ASC' ? '>' : '<'} (${cursor.getQuery()})`, { after: filter.after });
    }
    return { page, filtered, limit, offset };
  }

  /**
   * Starts the cancellation of a confirmed booking, once: the penalty is fixed
   * now and the caller holds the saga's lease. Null when another request started it first.
   */
  async startCancellation(booking: BookingEntity, penalty: string): Promise<BookingEntity | null> {
    // Step done is only ever recorded with status confirmed: the step guard is the whole condition.
    if (booking.step !== 'done' || booking.status !== 'confirmed') return null;
    const started = (await this.move(this.dataSource.manager, booking, 'cancelling', { cancellationPenalty: penalty }))?.booking ?? null;
    if (started) this.logger.log({ msg: 'booking cancellation started', bookingId: started.id, cancellationPenalty: penalty });
    return started;
  }

  /**
   * Takes over one unfinished saga whose lease ran out or whose lease holder is gone (its
   * worker died); null when it is leased or finished. A card payment not yet charged
   * (`charging`) is taken early only by a caller with the card in hand (the client's
   * repeat): without it, taking over could only fail it.
   */
  async claim(id: number, options: { cardInHand: boolean }): Promise<BookingEntity | null> {
    const early = options.cardInHand ? leaseHolderGone() : `(${leaseHolderGone()} AND ${NEEDS_NO_CARD})`;
    const taken = await this.bookings
      .createQueryBuilder()
      .update()
      .set(this.lease)
      .where(`id = :id AND ${unfinished()} AND (lease_until < now() OR ${early})`, { id })
      .returning(['id'])
      .updateEntity(false)
      .execute();
    // The lease is the caller's now: reading the row afterwards sees what the last worker recorded.
    return (taken.raw as unknown[]).length ? this.find(id) : null;
  }

  /** Gives a saga back after a step failed for now: the next recovery pass retries it. */
  async releaseLease(id: number): Promise<void> {
    await this.bookings.createQueryBuilder().update().set({ leaseUntil: () => 'now()', leaseHolder: null }).where(`id = :id AND ${unfinished()}`, { id }).execute();
  }
  /**
   * A booking the vendor has not confirmed yet: nobody works on it until its next check,
   * `wait(checks so far)` seconds from now (the recovery loop takes it up then).
   */
  async awaitSupplier(id: number, wait: (checks: number) => number): Promise<void> {
    const booking = await this.bookings.findOne({ select: { id: true, supplierChecks: true }, where: { id } });
    const checks = booking?.supplierChecks ?? 0;
    await this.bookings
      .createQueryBuilder()
      .update()
      // A schedule, not a holder: nobody's death makes it due sooner.
      .set({ leaseUntil: () => 'now() + make_interval(secs => :wait)', leaseHolder: null, supplierChecks: checks + 1 })
      .setParameter('wait', wait(checks))
      .where('id = :id', { id })
      .execute();
  }

  /** How long the unfinished saga whose lease ran out first has been past it, in seconds (0: none is). */
  async overdueSeconds(): Promise<number> {
    const row = await this.select()
      .select('COALESCE(EXTRACT(EPOCH FROM now() - min(b.leaseUntil)), 0)', 'overdue')
      .where(`${unfinished('b.')} AND b.leaseUntil < now()`)
      .getRawOne<{ overdue: string }>();
    return Number(row?.overdue ?? 0);
  }

  /** Unfinished sagas whose lease ran out or whose lease holder is gone (their worker died): taken over with a new lease. */
  async claimAbandoned(limit: number): Promise<number[]> {
    const abandoned = this.select()
      .select('b.id')
      // A card payment not yet charged waits for its lease: the client's repeat, card in hand, may take it over meanwhile.
      .where(`${unfinished('b.')} AND (b.leaseUntil < now() OR (${leaseHolderGone('b.')} AND b.${NEEDS_NO_CARD}))`)
      .orderBy('b.id')
      .limit(limit)
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked');
    const result = await this.bookings
      .createQueryBuilder()
      .update()
      .set(this.lease)
      .where(`id IN (${abandoned.getQuery()})`)
      .setParameters(abandoned.getParameters())
      .returning(['id'])
      .updateEntity(false)
      .execute();
    return (result.raw as { id: number }[]).map((row) => row.id);
  }
}

/** SQL: the saga's next step needs no card details (only the client's request has them; they are never kept). */
const NEEDS_NO_CARD = `step <> 'charging'`;

/** What a page may say and still take its total from the kept counts: any other filter counts its total. */
const COUNTED_BY: ReadonlySet<string> = new Set<keyof BookingListFilter>(['page', 'after', 'limit', 'sortBy', 'sortOrder', 'status']);

/**
 * How many bookings a filtered query matches: COUNT(*), where TypeORM's getCount() writes
 * COUNT(DISTINCT(id)), which makes PostgreSQL collect and compare every matching id (the
 * rows of one table are distinct already).
 */
async function countOf(query: SelectQueryBuilder<BookingEntity>): Promise<number> {
  const row = await query.clone().select('COUNT(*)', 'total').getRawOne<{ total: string }>();
  return Number(row?.total ?? 0);
}

/** The bookings a scope reaches. */
function inScope(query: SelectQueryBuilder<BookingEntity>, scope: BookingScope): SelectQueryBuilder<BookingEntity> {
  query.where('b.clientId = :clientId', { clientId: scope.clientId });
  if (scope.sandbox !== null) query.andWhere('b.sandbox = :sandbox', { sandbox: scope.sandbox });
  if (scope.userId !== null) query.andWhere('b.userId = :userId', { userId: scope.userId });
  return query;
}

/** The condition "in this owner's idempotency key space" (a booking without a user is user 0 here); `alias` is "b." in a select. */
function ownedBy(owner: IdempotencyKeyOwner, alias = ''): Brackets {
  return new Brackets((key) =>
    key
      .where(`${alias}client_id = :ownerClientId`, { ownerClientId: owner.clientId })
      .andWhere(`${alias}sandbox = :ownerSandbox`, { ownerSandbox: owner.sandbox })
      .andWhere(`coalesce(${alias}user_id, 0) = :ownerUserId`, { ownerUserId: owner.userId ?? 0 }),
  );
}
