import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { AccountingEntryView, Actor, BalanceView, IsIdString, NewAccountingEntry, PageQuery, SUBJECTS } from '@hotel/contracts';
import { ServiceClient } from '@hotel/platform';
import { BackendApi, CurrentActor } from '../auth/api-family';
import { SERVICE_CLIENT } from '../gateway.tokens';
import { Paginated } from '../http/paginated';

export class EntryIdParams {
  @IsIdString()
  id: string;
}

export class BookingIdParams {
  @IsIdString()
  bookingId: string;
}

/** The finance team's ledger: entries are appended, never changed. */
@Controller('api/accounting')
@BackendApi()
export class AccountingController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Post()
  @HttpCode(201)
  create(@CurrentActor() actor: Actor, @Body() entry: NewAccountingEntry): Promise<AccountingEntryView> {
    return this.services.send(SUBJECTS.ACCOUNTING_ENTRY_CREATE, { actor, entry });
  }

  /** Newest first; `page` and `limit` (default 50, at most 500); `total` counts every entry. */
  @Get()
  async list(@CurrentActor() actor: Actor, @Query() query: PageQuery): Promise<Paginated<AccountingEntryView>> {
    const page = await this.services.send(SUBJECTS.ACCOUNTING_ENTRY_LIST, { actor, page: query.page ?? 1, limit: query.limit ?? 50 });
    return new Paginated(page.entries, page.total);
  }

  /** An addition for the finance team: credit limit, credits, debits, holds and available funds. */
  @Get('balance')
  balance(@CurrentActor() actor: Actor): Promise<BalanceView> {
    return this.services.send(SUBJECTS.ACCOUNTING_BALANCE_GET, { actor });
  }

  @Get('booking/:bookingId')
  forBooking(@CurrentActor() actor: Actor, @Param() params: BookingIdParams): Promise<AccountingEntryView[]> {
    return this.services.send(SUBJECTS.ACCOUNTING_ENTRY_LIST_BY_BOOKING, { actor, bookingId: Number(params.bookingId) });
  }

  @Get(':id')
  get(@CurrentActor() actor: Actor, @Param() params: EntryIdParams): Promise<AccountingEntryView> {
    return this.services.send(SUBJECTS.ACCOUNTING_ENTRY_GET, { actor, id: Number(params.id) });
  }
}
