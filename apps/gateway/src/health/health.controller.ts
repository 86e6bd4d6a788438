import { Controller } from '@nestjs/common';
import { LivenessView, ReadinessView } from '../http/reply-views';
import { ReadinessMonitor } from './readiness-monitor';
import { Route } from '../http/route';

@Controller()
export class HealthController {
  constructor(private readonly monitor: ReadinessMonitor) {}

  /** Liveness: the gateway process answers. No credential needed. */
  @Route('GET /health')
  live(): LivenessView {
    return { status: 'ok' };
  }

  /** Readiness: every service answered over NATS and reached its database at the last background check. */
  @Route('GET /health/ready')
  ready(): ReadinessView {
    return this.monitor.readiness();
  }
}
