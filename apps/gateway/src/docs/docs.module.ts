import { Module } from '@nestjs/common';
import { DocsController } from './docs.controller';

/** GET /openapi.json and the API reference at GET /docs; no credential. */
@Module({
  controllers: [DocsController],
})
export class DocsModule {}
