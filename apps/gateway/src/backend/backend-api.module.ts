import { Module } from '@nestjs/common';
import { AccountingController } from './accounting.controller';
import { BackendBookingsController } from './bookings.controller';
import { UsersController } from './users.controller';

/** The backend API under /api: users, the ledger and bookings (a backend token or a user token). */
@Module({
  controllers: [UsersController, AccountingController, BackendBookingsController],
})
export class BackendApiModule {}
