import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { DailyBalanceView, ExportPage, ExportPageRequest, OPERATIONS, PeriodRequest, ReconciliationView, StatementSummary } from '@hotel/contracts';
import { FinanceService } from './finance.service';
import { Handles } from '@hotel/platform';

@Controller()
export class FinanceController {
  constructor(private readonly finance: FinanceService) {}

  @Handles(OPERATIONS.ACCOUNTING_STATEMENT_SUMMARY)
  statement(@Payload() request: PeriodRequest): Promise<StatementSummary> {
    return this.finance.statementSummary(request.actor, request.from, request.to);
  }

  @Handles(OPERATIONS.ACCOUNTING_EXPORT_PAGE)
  exportPage(@Payload() request: ExportPageRequest): Promise<ExportPage> {
    return this.finance.exportPage(request);
  }

  @Handles(OPERATIONS.ACCOUNTING_BALANCE_DAILY)
  daily(@Payload() request: PeriodRequest): Promise<DailyBalanceView> {
    return this.finance.dailyBalance(request.actor, request.from, request.to);
  }

  @Handles(OPERATIONS.ACCOUNTING_RECONCILIATION_GET)
  reconcile(@Payload() request: PeriodRequest): Promise<ReconciliationView> {
    return this.finance.reconcile(request.actor, request.from, request.to);
  }
}
