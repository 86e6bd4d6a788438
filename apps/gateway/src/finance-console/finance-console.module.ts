import { Module } from '@nestjs/common';
import { FinanceConsoleController } from './finance-console.controller';

/** The finance console at /finance/ (its page and files need no credential; its calls take the operator's). */
@Module({
  controllers: [FinanceConsoleController],
})
export class FinanceConsoleModule {}
