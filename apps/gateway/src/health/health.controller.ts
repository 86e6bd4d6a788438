import { Controller, Get } from '@nestjs/common';
import { LivenessView, ReadinessView } from '../http/reply-views';
import { ReadinessMonitor } from './readiness-monitor';

@Controller('health')
export class HealthController {
  constructor(private readonly monitor: ReadinessMonitor) {}

  /** Liveness: the gateway process answers. No credential needed. */
  @Get()
  live(): LivenessView {
    return { status: 'ok' };
  }

  /** Readiness: every service answered over NATS and reached its database at the last background check. */
  @Get('ready')
  ready(): ReadinessView {
    return this.monitor.readiness();
  }
}
