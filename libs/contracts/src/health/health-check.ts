export class HealthCheckRequest {}

export interface HealthCheckReply {
  service: string;
  /** Distinguishes replicas of one service (host name and process id). */
  instance: string;
  database: 'up' | 'down';
}
