import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { getPage } from '@hotel/platform';
import { EntryEntity, EntryKind } from '../ledger/entry.entity';
import { ENTRY_SELECTION, EntryFields } from '../ledger/ledger.repository';

/** A period as instants: [start, end). */
export interface Span {
  start: Date;
  end: Date;
}

/** The figures of a period, exact decimal strings. */
export interface PeriodTotals {
  currency: string;
  creditLimit: string;
  /** credits − debits before the period. */
  opening: string;
  debits: string;
  credits: string;
  count: number;
  /** The client's last entry id when the figures were read. */
  upTo: number;
}

export interface DayTotals {
  day: string;
  debits: string;
  credits: string;
}

/** What reconciliation reads of a booking's automatic entry. */
export interface BookingEntryRow {
  id: number;
  kind: Exclude<EntryKind, 'manual'>;
  bookingId: number;
  debit: string;
  credit: string;
}

export interface StaleHold {
  bookingId: number;
  amount: string;
}

/**
 * The ledger read for the finance team: a period's figures, pages of entries in id
 * order (a keyset, one indexed range each, so an export of a million entries holds
 * one page at a time), daily totals, and what reconciliation compares. Reads only.
 */
@Injectable()
export class ReportsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Both reads of a report in one REPEATABLE READ snapshot, so the daily totals and the
   * opening balance add up even while entries are appended.
   */
  snapshot<T>(work: (reports: { totals: (clientId: number, span: Span) => Promise<PeriodTotals | null>; days: (clientId: number, span: Span) => Promise<DayTotals[]> }) => Promise<T>): Promise<T> {
    return this.dataSource.transaction('REPEATABLE READ', (manager) =>
      work({ totals: (clientId, span) => this.totals(manager, clientId, span), days: (clientId, span) => this.days(manager, clientId, span) }),
    );
  }

  /** The period's figures, in SQL numeric; null for a client without an account. */
  async totals(manager: EntityManager, clientId: number, span: Span): Promise<PeriodTotals | null> {
    // Raw: one statement (one snapshot) for the bound and the sums, FILTERed aggregates over the index entries_by_client_time.
    const rows: (Omit<PeriodTotals, 'upTo'> & { upTo: number | null })[] = await manager.query(
      `WITH bound AS (SELECT coalesce(max(id), 0) AS up_to FROM accounting.entries WHERE client_id = $1)
       SELECT a.currency, a.credit_limit::text AS "creditLimit", bound.up_to AS "upTo",
              coalesce(sum(e.credit - e.debit) FILTER (WHERE e.created_at < $2), 0)::text AS opening,
              coalesce(sum(e.debit) FILTER (WHERE e.created_at >= $2), 0)::text AS debits,
              coalesce(sum(e.credit) FILTER (WHERE e.created_at >= $2), 0)::text AS credits,
              count(e.id) FILTER (WHERE e.created_at >= $2)::int AS count
         FROM accounting.accounts a CROSS JOIN bound
         LEFT JOIN accounting.entries e ON e.client_id = a.client_id AND e.created_at < $3 AND e.id <= bound.up_to
        WHERE a.client_id = $1
        GROUP BY a.currency, a.credit_limit, bound.up_to`,
      [clientId, span.start, span.end],
    );
    return rows.length ? { ...rows[0], upTo: rows[0].upTo ?? 0 } : null;
  }

  /** Debits and credits of every day of the period (UTC), days without entries included. */
  private async days(manager: EntityManager, clientId: number, span: Span): Promise<DayTotals[]> {
    // Raw: generate_series gives the days without entries their zero row.
    return manager.query(
      `WITH per_day AS (
         SELECT (created_at AT TIME ZONE 'UTC')::date AS day, sum(debit) AS debits, sum(credit) AS credits
           FROM accounting.entries WHERE client_id = $1 AND created_at >= $2 AND created_at < $3 GROUP BY 1)
       SELECT to_char(d.day, 'YYYY-MM-DD') AS day, coalesce(p.debits, 0)::text AS debits, coalesce(p.credits, 0)::text AS credits
         FROM generate_series(($2::timestamptz AT TIME ZONE 'UTC')::date, ($3::timestamptz AT TIME ZONE 'UTC')::date - 1, interval '1 day') AS d(day)
         LEFT JOIN per_day p ON p.day = d.day
        ORDER BY d.day`,
      [clientId, span.start, span.end],
    );
  }

  /** The client's last entry id now. */
  async lastEntryId(clientId: number): Promise<number> {
    const row = await this.dataSource.getRepository(EntryEntity).createQueryBuilder('e').select('max(e.id)', 'max').where('e.clientId = :clientId', { clientId }).getRawOne<{ max: number | null }>();
    return row?.max ?? 0;
  }

  /** The id before the span's first entry (entries_by_client_time), so its pages start there rather than at the ledger's beginning. */
  async idBefore(clientId: number, span: Span): Promise<number> {
    const row = await this.dataSource
      .getRepository(EntryEntity)
      .createQueryBuilder('e')
      .select('min(e.id)', 'first')
      .where('e.clientId = :clientId AND e.createdAt >= :start AND e.createdAt < :end', { clientId, start: span.start, end: span.end })
      .getRawOne<{ first: number | null }>();
    return (row?.first ?? 1) - 1;
  }

  /** Up to `limit` entries after id `after`, up to `upTo`, oldest first (within `span`, when given). */
  async entryPage(clientId: number, after: number, upTo: number, limit: number, span: Span | null): Promise<EntryFields[]> {
    const query = this.dataSource
      .getRepository(EntryEntity)
      .createQueryBuilder('e')
      .select(ENTRY_SELECTION)
      .where('e.clientId = :clientId AND e.id > :after AND e.id <= :upTo', { clientId, after, upTo })
      .orderBy('e.id', 'ASC');
    if (span) query.andWhere('e.createdAt >= :start AND e.createdAt < :end', { start: span.start, end: span.end });
    return getPage(query, limit, 0);
  }

  /** The automatic entries of these bookings. */
  async bookingEntries(clientId: number, bookingIds: number[]): Promise<BookingEntryRow[]> {
    return this.automaticEntries().andWhere('e.bookingId = ANY(:bookingIds)', { clientId, bookingIds }).getRawMany();
  }

  /** Up to `limit` automatic entries written in the span, after id `after`, in id order. */
  async automaticEntriesIn(clientId: number, span: Span, after: number, limit: number): Promise<BookingEntryRow[]> {
    return this.automaticEntries()
      .andWhere('e.createdAt >= :start AND e.createdAt < :end AND e.id > :after', { clientId, start: span.start, end: span.end, after })
      .orderBy('e.id', 'ASC')
      .limit(limit)
      .getRawMany();
  }

  /** Holds placed in the span and still active after `leaseSeconds`: their saga should have captured or released them. */
  async staleHolds(clientId: number, span: Span, leaseSeconds: number): Promise<StaleHold[]> {
    // Raw: make_interval with a bound number of seconds.
    return this.dataSource.query(
      `SELECT booking_id AS "bookingId", amount::text AS amount FROM accounting.holds
        WHERE client_id = $1 AND status = 'active' AND created_at >= $2 AND created_at < $3 AND created_at < now() - make_interval(secs => $4)
        ORDER BY booking_id`,
      [clientId, span.start, span.end, leaseSeconds],
    );
  }

  private automaticEntries() {
    return this.dataSource
      .getRepository(EntryEntity)
      .createQueryBuilder('e')
      .select(['e.id AS id', 'e.kind AS kind', 'e.booking_id AS "bookingId"', 'e.debit::text AS debit', 'e.credit::text AS credit'])
      .where(`e.clientId = :clientId AND e.kind <> 'manual' AND e.bookingId IS NOT NULL`);
  }
}
