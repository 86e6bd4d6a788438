import { DynamicModule, Module } from '@nestjs/common';
import { SUBJECTS } from '@hotel/contracts';
import { ServiceEnv, ServicePlatformModule } from '@hotel/platform';
import { FinanceController } from './finance/finance.controller';
import { FinanceService } from './finance/finance.service';
import { ReportsRepository } from './finance/reports.repository';
import { AccountEntity } from './ledger/account.entity';
import { CreditRequestEntity } from './ledger/credit-request.entity';
import { EntryEntity } from './ledger/entry.entity';
import { HoldEntity } from './ledger/hold.entity';
import { LedgerController } from './ledger/ledger.controller';
import { LedgerRepository } from './ledger/ledger.repository';
import { LedgerService } from './ledger/ledger.service';
import { SelfCreditDefaultEntity } from './ledger/self-credit-default.entity';
import { CreateLedger1763930000000 } from './migrations/1763930000000-create-ledger';
import { HoldFunctions1764000000000 } from './migrations/1764000000000-hold-functions';
import { OneFundsRule1764100000000 } from './migrations/1764100000000-one-funds-rule';
import { FinanceWorkspace1764600000000 } from './migrations/1764600000000-finance-workspace';
import { AmountsInAnyCurrency1764700000000 } from './migrations/1764700000000-amounts-in-any-currency';
import { PendingSelfCredits1764800000000 } from './migrations/1764800000000-pending-self-credits';
import { EntryIdempotencyKeys1765950000000 } from './migrations/1765950000000-entry-idempotency-keys';

/** Every table of the accounting schema, as TypeORM entities. */
export const ACCOUNTING_ENTITIES = [AccountEntity, EntryEntity, HoldEntity, CreditRequestEntity, SelfCreditDefaultEntity];

/** The accounting schema's migrations, in order. */
export const ACCOUNTING_MIGRATIONS = [
  CreateLedger1763930000000,
  HoldFunctions1764000000000,
  OneFundsRule1764100000000,
  FinanceWorkspace1764600000000,
  AmountsInAnyCurrency1764700000000,
  PendingSelfCredits1764800000000,
  EntryIdempotencyKeys1765950000000,
];

@Module({})
export class AccountingAppModule {
  static register(env: ServiceEnv): DynamicModule {
    return {
      module: AccountingAppModule,
      imports: [
        ServicePlatformModule.forService({
          name: 'accounting',
          env,
          healthSubject: SUBJECTS.ACCOUNTING_HEALTH_CHECK,
          entities: ACCOUNTING_ENTITIES,
          migrations: ACCOUNTING_MIGRATIONS,
        }),
      ],
      controllers: [LedgerController, FinanceController],
      providers: [LedgerRepository, LedgerService, ReportsRepository, FinanceService],
    };
  }
}
