import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { ReadinessMonitor } from './readiness-monitor';

/** GET /health (liveness) and GET /health/ready (readiness, from the background checks); no credential. */
@Module({
  controllers: [HealthController],
  providers: [ReadinessMonitor],
})
export class HealthModule {}
