import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DailyBalanceView, ExportPage, ExportPageRequest, PeriodRequest, ReconciliationView, SUBJECTS, StatementSummary } from '@hotel/contracts';
import { FinanceService } from './finance.service';

@Controller()
export class FinanceController {
  constructor(private readonly finance: FinanceService) {}

  @MessagePattern(SUBJECTS.ACCOUNTING_STATEMENT_SUMMARY)
  statement(@Payload() request: PeriodRequest): Promise<StatementSummary> {
    return this.finance.statementSummary(request.actor, request.from, request.to);
  }

  @MessagePattern(SUBJECTS.ACCOUNTING_EXPORT_PAGE)
  exportPage(@Payload() request: ExportPageRequest): Promise<ExportPage> {
    return this.finance.exportPage(request);
  }

  @MessagePattern(SUBJECTS.ACCOUNTING_BALANCE_DAILY)
  daily(@Payload() request: PeriodRequest): Promise<DailyBalanceView> {
    return this.finance.dailyBalance(request.actor, request.from, request.to);
  }

  @MessagePattern(SUBJECTS.ACCOUNTING_RECONCILIATION_GET)
  reconcile(@Payload() request: PeriodRequest): Promise<ReconciliationView> {
    return this.finance.reconcile(request.actor, request.from, request.to);
  }
}
