import { Body, Controller, Headers, Inject, Param, Query, Res } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import {
  AccountingEntryView,
  Actor,
  BalanceView,
  ClientName,
  ClientScopeQuery,
  ClientSearchQuery,
  CreditRequestQuery,
  CreditRequestView,
  DailyBalanceView,
  IsIdString,
  LEDGER_CSV_COLUMNS,
  LedgerQuery,
  NewAccountingEntry,
  PeriodQuery,
  ReconciliationView,
  STATEMENT_CSV_COLUMNS,
  SUBJECTS,
  StatementQuery,
  StatementView,
  csvRecord,
} from '@hotel/contracts';
import { DomainError, ServiceClient } from '@hotel/platform';
import { BackendApi, CurrentActor } from '../auth/api-family';
import { SERVICE_CLIENT } from '../gateway.tokens';
import { Paginated } from '../http/paginated';
import { scopedActor } from './client-scope';
import { ExportPages, byteStream } from './ledger-export';
import { idempotencyKeyOf } from './idempotency-key';
import { statementPdf } from './statement-pdf';
import { Route } from '../http/route';

/** `{id}` of an entry or of a credit request. */
export class EntryIdParams {
  @IsIdString()
  id: string;
}

export class BookingIdParams {
  @IsIdString()
  bookingId: string;
}

/** An explicit `format` wins; else the Accept header may ask for one of the given media types. */
function negotiate<F extends string>(format: F | undefined, accept: string | undefined, offered: Record<string, F>): F | undefined {
  if (format) return format;
  const asked = (accept ?? '').toLowerCase();
  return Object.entries(offered).find(([media]) => asked.includes(media))?.[1];
}

/** Excel reads a CSV as UTF-8 (names with accents, `·`, `–`) only when it starts with a byte-order mark. */
const UTF8_BOM = '\uFEFF';

/** A file name's part for a client: its name folded to letters, digits and dashes, and its id (`acme-travel-1`). */
function clientSlug(name: string | null, clientId: number): string {
  const folded = (name ?? '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return folded ? `${folded}-${clientId}` : `client-${clientId}`;
}

/** A download: its media type, a file name, never cached. */
function download(reply: FastifyReply, mediaType: string, filename: string): void {
  reply.header('content-type', mediaType).header('content-disposition', `attachment; filename="${filename}"`).header('cache-control', 'no-store');
}

/**
 * The finance team's ledger: entries are appended, never changed. The client's backend
 * token reads its own; the finance credential every client's, naming it with `clientId`.
 */
@Controller()
@BackendApi()
export class AccountingController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  /**
   * 201 with the entry; 202 with a credit request when the client's own credit waits for the
   * finance team (credit policy `pending`). With an `Idempotency-Key` header, a repeat of the
   * same entry answers exactly what the first answered and writes nothing; another entry
   * under the key is 409 IDEMPOTENCY_CONFLICT.
   */
  @Route('POST /api/accounting')
  async create(
    @CurrentActor() actor: Actor,
    @Body() entry: NewAccountingEntry,
    @Headers('idempotency-key') header: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AccountingEntryView | CreditRequestView> {
    const idempotencyKey = idempotencyKeyOf(header);
    const posted = await this.services.send(SUBJECTS.ACCOUNTING_ENTRY_CREATE, { actor, entry, ...(idempotencyKey !== undefined && { idempotencyKey }) });
    if (posted.creditRequest) {
      reply.status(202);
      return posted.creditRequest;
    }
    return posted.entry;
  }

  /**
   * Newest first; `page` and `limit` (default 50, at most 500); `total` counts every entry, or
   * with filters (`from`, `to`, `name`, `bookingId`, `minAmount`, `maxAmount`) every entry that
   * matches. As CSV (`format=csv`, `Accept: text/csv`): every entry, oldest first, streamed.
   */
  @Route('GET /api/accounting')
  async list(
    @CurrentActor() actor: Actor,
    @Query() query: LedgerQuery,
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Paginated<AccountingEntryView> | Readable> {
    const scoped = scopedActor(actor, query.clientId);
    if (negotiate(query.format, accept, { 'text/csv': 'csv' }) === 'csv') {
      const [pages, name] = await Promise.all([ExportPages.open(this.services, scoped, { kind: 'ledger', format: 'csv' }), this.clientName(scoped.clientId)]);
      download(reply, 'text/csv; charset=utf-8', `ledger-${clientSlug(name, scoped.clientId)}-${new Date().toISOString().slice(0, 10)}.csv`);
      return byteStream(pages.text(UTF8_BOM + csvRecord(LEDGER_CSV_COLUMNS), ''));
    }
    const { from, to, name, bookingId, minAmount, maxAmount } = query;
    const filter = { from, to, name, bookingId, minAmount, maxAmount };
    const filtered = Object.values(filter).some((value) => value !== undefined);
    const page = await this.services.send(SUBJECTS.ACCOUNTING_ENTRY_LIST, { actor: scoped, page: query.page ?? 1, limit: query.limit ?? 50, ...(filtered && { filter }) });
    return new Paginated(page.entries, page.total);
  }

  /** The finance credential's client picker: clients by a part of their name or by id, active ones first (at most `limit`, 20 unless said). */
  @Route('GET /api/accounting/clients')
  clients(@CurrentActor() actor: Actor, @Query() query: ClientSearchQuery): Promise<ClientName[]> {
    if (actor.role !== 'finance') throw new DomainError('FORBIDDEN', 'only the finance credential lists clients');
    return this.services.send(SUBJECTS.USERS_CLIENT_SEARCH, { ...(query.search && { search: query.search }), limit: query.limit ?? 20 });
  }

  /** An addition for the finance team: credit limit, credits, debits, holds and available funds. */
  @Route('GET /api/accounting/balance')
  balance(@CurrentActor() actor: Actor, @Query() query: ClientScopeQuery): Promise<BalanceView> {
    return this.services.send(SUBJECTS.ACCOUNTING_BALANCE_GET, { actor: scopedActor(actor, query.clientId) });
  }

  /** Credits, debits, the closing balance and available funds of each day of the period. */
  @Route('GET /api/accounting/balance/daily')
  daily(@CurrentActor() actor: Actor, @Query() query: PeriodQuery): Promise<DailyBalanceView> {
    return this.services.send(SUBJECTS.ACCOUNTING_BALANCE_DAILY, { actor: scopedActor(actor, query.clientId), from: query.from, to: query.to });
  }

  /**
   * The period's opening balance, every entry, the totals, the closing balance, the credit
   * limit and the funds available at the end; as JSON, CSV or PDF, streamed.
   */
  @Route('GET /api/accounting/statement')
  async statement(
    @CurrentActor() actor: Actor,
    @Query() query: StatementQuery,
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Readable> {
    const scoped = scopedActor(actor, query.clientId);
    const { from, to } = query;
    const format = negotiate(query.format, accept, { 'text/csv': 'csv', 'application/pdf': 'pdf' }) ?? 'json';
    const [summary, name] = await Promise.all([this.services.send(SUBJECTS.ACCOUNTING_STATEMENT_SUMMARY, { actor: scoped, from, to }), this.clientName(scoped.clientId)]);
    // `amounts`: the figures as exact decimals with the currency's decimals, for CSV and PDF (JSON answers the numbers).
    const { lastEntryId, amounts, ...figures } = summary;
    const pages = await ExportPages.open(
      this.services,
      scoped,
      { kind: 'statement', format: format === 'csv' ? 'csv' : 'json', from, to },
      { upTo: lastEntryId, balance: amounts.openingBalance },
    );
    const filename = `statement-${clientSlug(name, scoped.clientId)}-${from}-${to}`;
    if (format === 'pdf') {
      download(reply, 'application/pdf', `${filename}.pdf`);
      return statementPdf(summary, pages.entries(), name);
    }
    if (format === 'csv') {
      download(reply, 'text/csv; charset=utf-8', `${filename}.csv`);
      const opening = UTF8_BOM + csvRecord(STATEMENT_CSV_COLUMNS) + csvRecord([from, null, 'Opening balance', null, null, amounts.openingBalance]);
      const closing = csvRecord([to, null, 'Closing balance', amounts.totalDebits, amounts.totalCredits, amounts.closingBalance]);
      return byteStream(pages.text(opening, closing));
    }
    reply.header('content-type', 'application/json; charset=utf-8');
    // The envelope written by hand around the streamed entries (the envelope hook does not see streams).
    const head = JSON.stringify({ data: { ...figures, entries: [] } satisfies StatementView, success: true, message: null });
    const at = head.indexOf('"entries":[]') + '"entries":['.length;
    return byteStream(pages.text(head.slice(0, at), head.slice(at)));
  }

  /** The client's name for a document about it; none when the users service cannot say now (the document names the id alone). */
  private async clientName(clientId: number): Promise<string | null> {
    try {
      return (await this.services.send(SUBJECTS.USERS_CLIENT_GET, { clientId })).name ?? null;
    } catch {
      return null;
    }
  }

  /** Every booking of the period against its ledger entries: the mismatches, and totals per status. */
  @Route('GET /api/accounting/reconciliation')
  reconciliation(@CurrentActor() actor: Actor, @Query() query: PeriodQuery): Promise<ReconciliationView> {
    return this.services.send(SUBJECTS.ACCOUNTING_RECONCILIATION_GET, { actor: scopedActor(actor, query.clientId), from: query.from, to: query.to });
  }

  /** Credit requests, newest first: a client's own, or (finance credential) one client's or every client's. */
  @Route('GET /api/accounting/requests')
  async requests(@CurrentActor() actor: Actor, @Query() query: CreditRequestQuery): Promise<Paginated<CreditRequestView>> {
    const page = await this.services.send(SUBJECTS.ACCOUNTING_CREDIT_REQUEST_LIST, {
      actor: scopedActor(actor, query.clientId),
      page: query.page ?? 1,
      limit: query.limit ?? 50,
      ...(query.status && { status: query.status }),
    });
    return new Paginated(page.requests, page.total);
  }

  /** The finance credential books a pending credit: its entry is appended once, however often (or concurrently) this is called. */
  @Route('POST /api/accounting/requests/{id}/confirm')
  confirm(@CurrentActor() actor: Actor, @Param() params: EntryIdParams): Promise<CreditRequestView> {
    return this.services.send(SUBJECTS.ACCOUNTING_CREDIT_REQUEST_CONFIRM, { actor, id: Number(params.id) });
  }

  @Route('POST /api/accounting/requests/{id}/reject')
  reject(@CurrentActor() actor: Actor, @Param() params: EntryIdParams): Promise<CreditRequestView> {
    return this.services.send(SUBJECTS.ACCOUNTING_CREDIT_REQUEST_REJECT, { actor, id: Number(params.id) });
  }

  @Route('GET /api/accounting/booking/{bookingId}')
  forBooking(@CurrentActor() actor: Actor, @Param() params: BookingIdParams, @Query() query: ClientScopeQuery): Promise<AccountingEntryView[]> {
    return this.services.send(SUBJECTS.ACCOUNTING_ENTRY_LIST_BY_BOOKING, { actor: scopedActor(actor, query.clientId), bookingId: Number(params.bookingId) });
  }

  @Route('GET /api/accounting/{id}')
  get(@CurrentActor() actor: Actor, @Param() params: EntryIdParams, @Query() query: ClientScopeQuery): Promise<AccountingEntryView> {
    return this.services.send(SUBJECTS.ACCOUNTING_ENTRY_GET, { actor: scopedActor(actor, query.clientId), id: Number(params.id) });
  }
}
