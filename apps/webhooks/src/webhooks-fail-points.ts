import { Injectable } from '@nestjs/common';
import { FailPoints } from '@hotel/platform';

/**
 * Where the webhooks service can be cut off in crash tests: an event received, nothing
 * written (it comes again once its acknowledgement is overdue); an event's deliveries
 * written, the stream message not yet acknowledged (nothing attempted); an attempt made,
 * its outcome not yet recorded (attempted again: at least once).
 */
export const WEBHOOKS_FAIL_POINTS = ['event-received', 'after-deliveries-persisted', 'after-attempt'] as const;
export type WebhooksFailPoint = (typeof WEBHOOKS_FAIL_POINTS)[number];

@Injectable()
export class WebhooksFailPoints extends FailPoints<WebhooksFailPoint> {}
