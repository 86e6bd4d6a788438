import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { WebhookDeliveryStatus, WebhookDeliveryView, WebhookEventType } from '@hotel/contracts';
import { getPage } from '@hotel/platform';
import { WebhookEndpointEntity } from '../endpoints/webhook-endpoint.entity';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';

/** An event to deliver, as the consumer read it from the stream (or the test event). */
export interface WebhookEvent {
  id: string;
  type: WebhookEventType;
  clientId: number;
  bookingId: number | null;
  sequence: number | null;
  payload: string;
}

/** A delivery a replica has taken to attempt now. */
export interface ClaimedDelivery {
  id: number;
  endpointId: number;
  eventId: string;
  payload: string;
  attempts: number;
  clientId: number;
  /** The claim's token: the outcome is recorded only while this replica still holds it. */
  leaseToken: string;
}

/** What an attempt came to, as recorded. */
export interface AttemptRecord {
  statusCode: number | null;
  error: string | null;
  /** How long the attempt took (ms); null when nothing was sent. */
  durationMs: number | null;
  delivered: boolean;
  /** How long until the next attempt (ms, from the database's clock, as due deliveries are found); null when none is left (the delivery has failed). */
  retryInMs: number | null;
  /** The endpoint is disabled when its failures began this long ago (seconds). */
  disableAfterS: number;
}

export function toDeliveryView(entity: WebhookDeliveryEntity): WebhookDeliveryView {
  return {
    id: entity.id,
    endpointId: entity.endpointId,
    eventId: entity.eventId,
    eventType: entity.eventType,
    bookingId: entity.bookingId,
    status: entity.status,
    attempts: entity.attempts,
    lastStatusCode: entity.lastStatusCode,
    lastError: entity.lastError,
    lastAttemptAt: entity.lastAttemptAt?.toISOString() ?? null,
    lastDurationMs: entity.lastDurationMs,
    nextAttemptAt: entity.status === 'pending' ? (entity.nextAttemptAt?.toISOString() ?? null) : null,
    deliveredAt: entity.deliveredAt?.toISOString() ?? null,
    createdAt: entity.createdAt.toISOString(),
  };
}

/** Why the platform disables an endpoint (its pending deliveries fail with it). */
function disabledReason(afterS: number): string {
  return `every attempt failed for ${afterS % 86400 === 0 ? `${afterS / 86400} days` : `${afterS} seconds`} or more`;
}

/** The deliveries: one per endpoint and event, attempted until delivered or out of attempts. Owns its transactions. */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get deliveries() {
    return this.dataSource.getRepository(WebhookDeliveryEntity);
  }

  /**
   * The event seen (a later event of its booking may go once every earlier one has been), and
   * a pending delivery of it to each endpoint, due now, in one transaction; one already there
   * (a repeat of the event) is kept as it is.
   */
  async add(event: WebhookEvent, endpointIds: number[]): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      // Raw: a table with no entity, read only by claimDue's order rule. (A test event belongs to no booking.)
      if (event.bookingId !== null && event.sequence !== null) {
        await manager.query(`INSERT INTO webhooks.booking_events_seen (booking_id, sequence) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [event.bookingId, event.sequence]);
      }
      if (endpointIds.length > 0) await this.insertDeliveries(manager, event, endpointIds);
    });
  }

  private async insertDeliveries(manager: EntityManager, event: WebhookEvent, endpointIds: number[]): Promise<void> {
    await manager
      .getRepository(WebhookDeliveryEntity)
      .createQueryBuilder()
      .insert()
      .values(
        endpointIds.map((endpointId) => ({
          endpointId,
          clientId: event.clientId,
          eventId: event.id,
          eventType: event.type,
          bookingId: event.bookingId,
          sequence: event.sequence,
          payload: event.payload,
          nextAttemptAt: () => 'now()',
        })),
      )
      .orIgnore()
      .updateEntity(false)
      .execute();
  }

  async find(clientId: number, id: number): Promise<WebhookDeliveryView | null> {
    const entity = await this.deliveries.findOneBy({ clientId, id });
    return entity ? toDeliveryView(entity) : null;
  }

  async findByEvent(endpointId: number, eventId: string): Promise<WebhookDeliveryView | null> {
    const entity = await this.deliveries.findOneBy({ endpointId, eventId });
    return entity ? toDeliveryView(entity) : null;
  }

  /** An endpoint's deliveries, newest first. */
  async page(endpointId: number, status: WebhookDeliveryStatus | undefined, limit: number, offset: number): Promise<{ deliveries: WebhookDeliveryView[]; total: number }> {
    const query = this.deliveries.createQueryBuilder('d').where('d.endpointId = :endpointId', { endpointId });
    if (status) query.andWhere('d.status = :status', { status });
    const [rows, total] = await Promise.all([getPage(query.clone().orderBy('d.id', 'DESC'), limit, offset), query.getCount()]);
    return { deliveries: rows.map(toDeliveryView), total };
  }

  /** Fails the pending deliveries of an endpoint its owner disabled (they would otherwise wait for ever). */
  async failPending(endpointId: number, reason: string): Promise<void> {
    await this.deliveries.update({ endpointId, status: 'pending' }, { status: 'failed', nextAttemptAt: null, lastError: reason, updatedAt: () => 'now()' });
  }

  /** Whether the endpoint has a test event waiting (one at a time: test events cannot pile up). */
  async hasPendingTest(endpointId: number): Promise<boolean> {
    return this.deliveries.exists({ where: { endpointId, eventType: 'webhook.test', status: 'pending' } });
  }

  /** A delivered or failed delivery made pending and due now; null when there is none such (a pending one keeps its schedule). */
  async retryNow(clientId: number, id: number): Promise<WebhookDeliveryView | null> {
    const result = await this.deliveries.update({ clientId, id, status: In(['delivered', 'failed']) }, { status: 'pending', nextAttemptAt: () => 'now()', updatedAt: () => 'now()' });
    return result.affected ? this.find(clientId, id) : null;
  }

  /**
   * Takes up to `limit` due deliveries for this replica until `leaseMs` from now: pending,
   * due, not held by another replica, of an enabled endpoint, and each the earliest
   * pending one of its booking for its endpoint (a booking's events reach an endpoint in
   * their order; a later one waits while an earlier one is retried) whose booking's earlier
   * events have all been seen (one still on its way: redelivered after a replica died),
   * or that has waited `gapWaitMs` for them (an earlier event lost for good holds nothing
   * up for ever). Client by client, each
   * with at most `perClient` attempts in flight across the replicas, so that one client's
   * slow or silent receivers cannot hold every attempt slot (a soft bound: two replicas
   * claiming at the same moment may each fill it).
   */
  async claimDue(limit: number, leaseMs: number, perClient: number, gapWaitMs: number): Promise<ClaimedDelivery[]> {
    // Raw SQL: the due clients, and per client a LATERAL pick locked FOR UPDATE SKIP
    // LOCKED under the order rule (a NOT EXISTS over the same table), updated and
    // returned with the payload; the query builder cannot say it. TypeORM answers an
    // UPDATE's query() with [rows, count].
    const [claimed] = (await this.dataSource.query(
      `UPDATE webhooks.deliveries d
          SET leased_until = now() + make_interval(secs => $2::double precision / 1000), lease_token = gen_random_uuid()
        WHERE d.id IN (
          SELECT pick.id
            FROM (SELECT DISTINCT c.client_id FROM webhooks.deliveries c WHERE c.status = 'pending' AND c.next_attempt_at <= now()) clients
            CROSS JOIN LATERAL (
              SELECT c.id, c.next_attempt_at FROM webhooks.deliveries c
                JOIN webhooks.endpoints e ON e.id = c.endpoint_id AND e.enabled
               WHERE c.client_id = clients.client_id AND c.status = 'pending' AND c.next_attempt_at <= now()
                 AND (c.leased_until IS NULL OR c.leased_until < now())
                 AND NOT EXISTS (
                   SELECT 1 FROM webhooks.deliveries p
                    WHERE p.endpoint_id = c.endpoint_id AND p.booking_id = c.booking_id
                      AND p.status = 'pending' AND p.sequence < c.sequence)
                 AND (c.sequence IS NULL OR c.sequence = 1
                      OR c.created_at < now() - make_interval(secs => $4::double precision / 1000)
                      OR (SELECT count(*) FROM webhooks.booking_events_seen s WHERE s.booking_id = c.booking_id AND s.sequence < c.sequence) >= c.sequence - 1)
               ORDER BY c.next_attempt_at, c.id
               LIMIT greatest(0, $3 - (SELECT count(*) FROM webhooks.deliveries l WHERE l.client_id = clients.client_id AND l.leased_until > now()))
               FOR UPDATE OF c SKIP LOCKED) pick
           ORDER BY pick.next_attempt_at, pick.id
           LIMIT $1)
        RETURNING d.id, d.endpoint_id AS "endpointId", d.client_id AS "clientId", d.event_id AS "eventId", d.payload, d.attempts, d.lease_token AS "leaseToken"`,
      [limit, leaseMs, perClient, gapWaitMs],
    )) as [ClaimedDelivery[], number];
    return claimed;
  }

  /** Deletes up to `batch` records of events seen over `days` days ago (their deliveries long sent or given up); how many. */
  async pruneSeen(days: number, batch: number): Promise<number> {
    // Raw: a table with no entity; the batch by ctid keeps each statement short.
    const [, deleted] = (await this.dataSource.query(
      `DELETE FROM webhooks.booking_events_seen WHERE ctid IN (SELECT ctid FROM webhooks.booking_events_seen WHERE seen_at < now() - make_interval(days => $1) LIMIT $2)`,
      [days, batch],
    )) as [unknown, number];
    return deleted;
  }

  /** Deletes up to `batch` delivered or failed deliveries last changed over `days` days ago; how many. */
  async pruneFinished(days: number, batch: number): Promise<number> {
    const old = this.deliveries
      .createQueryBuilder('d')
      .select('d.id')
      .where(`d.status IN ('delivered', 'failed') AND d.updatedAt < now() - make_interval(days => :days)`, { days })
      .limit(batch);
    const result = await this.deliveries
      .createQueryBuilder()
      .delete()
      .where(`id IN (${old.getQuery()})`)
      .setParameters(old.getParameters())
      .execute();
    return result.affected ?? 0;
  }

  /**
   * Records an attempt, and its endpoint's run of failures, in one transaction: a
   * success ends the run; a failure starts it or, when the run began `disableAfterS`
   * ago or more, disables the endpoint and fails its pending deliveries (which then
   * say why). Returns whether the endpoint was disabled by it.
   */
  recordAttempt(delivery: ClaimedDelivery, record: AttemptRecord): Promise<{ recorded: boolean; disabled: boolean }> {
    return this.dataSource.transaction(async (manager) => {
      const status: WebhookDeliveryStatus = record.delivered ? 'delivered' : record.retryInMs !== null ? 'pending' : 'failed';
      // Only while this replica holds the claim: one that outlived its lease (another replica
      // took the delivery since) must not write over that replica's outcome.
      const updated = await manager.getRepository(WebhookDeliveryEntity).update(
        { id: delivery.id, leaseToken: delivery.leaseToken },
        {
          attempts: () => 'attempts + 1',
          status,
          lastStatusCode: record.statusCode,
          lastError: record.error,
          // When it began: its duration before now (the database's clock, as every time of the log).
          lastAttemptAt: () => (record.durationMs === null ? 'now()' : `now() - make_interval(secs => ${Number(record.durationMs) / 1000})`),
          lastDurationMs: record.durationMs,
          nextAttemptAt: status === 'pending' ? () => `now() + make_interval(secs => ${Number(record.retryInMs) / 1000})` : null,
          deliveredAt: record.delivered ? () => 'now()' : undefined,
          leasedUntil: null,
          leaseToken: null,
          updatedAt: () => 'now()',
        },
      );
      if (!updated.affected) return { recorded: false, disabled: false };
      const endpoints = manager.getRepository(WebhookEndpointEntity);
      if (record.delivered) {
        await endpoints.createQueryBuilder().update().set({ failingSince: null }).where('id = :id AND failing_since IS NOT NULL', { id: delivery.endpointId }).execute();
        return { recorded: true, disabled: false };
      }
      const disabled = await endpoints
        .createQueryBuilder()
        .update()
        .set({ enabled: false, disabledReason: disabledReason(record.disableAfterS), updatedAt: () => 'now()' })
        .where(`id = :id AND enabled AND failing_since <= now() - make_interval(secs => :after)`, { id: delivery.endpointId, after: record.disableAfterS })
        .execute();
      if (disabled.affected) {
        await manager
          .getRepository(WebhookDeliveryEntity)
          .update(
            { endpointId: delivery.endpointId, status: 'pending' },
            { status: 'failed', nextAttemptAt: null, lastError: `endpoint disabled: ${disabledReason(record.disableAfterS)}`, updatedAt: () => 'now()' },
          );
        return { recorded: true, disabled: true };
      }
      await endpoints.createQueryBuilder().update().set({ failingSince: () => 'now()' }).where('id = :id AND failing_since IS NULL', { id: delivery.endpointId }).execute();
      return { recorded: true, disabled: false };
    });
  }
}
