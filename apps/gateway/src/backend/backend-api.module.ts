import { Module } from '@nestjs/common';
import { AccountingController } from './accounting.controller';
import { BackendBookingsController } from './bookings.controller';
import { UsersController } from './users.controller';
import { WebhooksController } from './webhooks.controller';

/** The backend API under /api: users, the ledger, bookings and webhooks (a backend token or a user token). */
@Module({
  controllers: [UsersController, AccountingController, BackendBookingsController, WebhooksController],
})
export class BackendApiModule {}
