import { Module } from '@nestjs/common';
import { BookController } from './book.controller';
import { IdentityController } from './identity.controller';
import { PrebookController } from './prebook.controller';
import { PromoController } from './promo.controller';
import { SearchController } from './search.controller';
import { VoucherController } from './voucher.controller';

/**
 * The V1 booking API (an API key or a user token): /me, places, search and polling,
 * a hotel's rates, prebook, book, the booking list, precancel and cancel, promo
 * codes, and the signed voucher links (no credential).
 */
@Module({
  controllers: [IdentityController, SearchController, PrebookController, PromoController, BookController, VoucherController],
})
export class BookingApiModule {}
