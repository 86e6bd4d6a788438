import { Module } from '@nestjs/common';
import { V2BookController } from './v2-book.controller';
import { V2PrebookController } from './v2-prebook.controller';
import { V2RatesController } from './v2-rates.controller';

/** The V2 booking API (same credentials as V1): /v2/rates, /v2/prebook, /v2/book. */
@Module({
  controllers: [V2RatesController, V2PrebookController, V2BookController],
})
export class V2Module {}
