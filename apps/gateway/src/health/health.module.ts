import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';

/** GET /health (liveness) and GET /health/ready (readiness); no credential. */
@Module({
  controllers: [HealthController],
})
export class HealthModule {}
