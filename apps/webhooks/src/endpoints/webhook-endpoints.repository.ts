import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { BookingEventType, MAX_WEBHOOK_ENDPOINTS, WebhookEndpointView } from '@hotel/contracts';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';

/** The changes an update makes (the secret is changed only by rotateSecret). */
export interface EndpointChanges {
  url?: string;
  events?: BookingEventType[];
  description?: string | null;
  enabled?: boolean;
}

/** An endpoint as the dispatcher signs for it: its sealed secrets (the previous one while it still signs). */
export interface EndpointSecrets {
  url: string;
  sealedSecrets: string[];
}

export function toEndpointView(entity: WebhookEndpointEntity): WebhookEndpointView {
  return {
    id: entity.id,
    url: entity.url,
    events: entity.events,
    description: entity.description,
    enabled: entity.enabled,
    disabledReason: entity.disabledReason,
    createdAt: entity.createdAt.toISOString(),
    updatedAt: entity.updatedAt.toISOString(),
  };
}

/** Webhook endpoints, each reached only through its client's id. Owns its transactions. */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get endpoints() {
    return this.dataSource.getRepository(WebhookEndpointEntity);
  }

  /**
   * Adds an endpoint unless the client has MAX_WEBHOOK_ENDPOINTS already ('limit').
   * The count and the insert are one transaction under a lock per client, so
   * concurrent creations cannot pass the limit together.
   */
  create(clientId: number, fields: { url: string; events: BookingEventType[]; description: string | null }, sealedSecret: string): Promise<WebhookEndpointView | 'limit'> {
    return this.dataSource.transaction(async (manager) => {
      // Raw SQL: TypeORM has no advisory locks. The key pairs this table's oid with the client.
      await manager.query(`SELECT pg_advisory_xact_lock('webhooks.endpoints'::regclass::oid::integer, $1)`, [clientId]);
      const repository = manager.getRepository(WebhookEndpointEntity);
      if ((await repository.count({ where: { clientId } })) >= MAX_WEBHOOK_ENDPOINTS) return 'limit';
      const inserted = await repository.insert({ clientId, ...fields, secret: sealedSecret, enabled: true });
      const id = (inserted.identifiers[0] as { id: number }).id;
      return toEndpointView(await repository.findOneByOrFail({ id }));
    });
  }

  async list(clientId: number): Promise<WebhookEndpointView[]> {
    return (await this.endpoints.find({ where: { clientId }, order: { id: 'ASC' } })).map(toEndpointView);
  }

  async find(clientId: number, id: number): Promise<WebhookEndpointView | null> {
    const entity = await this.endpoints.findOneBy({ clientId, id });
    return entity ? toEndpointView(entity) : null;
  }

  /** Applies the changes; enabling an endpoint or changing its URL starts its run of failures afresh. */
  async update(clientId: number, id: number, changes: EndpointChanges): Promise<WebhookEndpointView | null> {
    const result = await this.endpoints.update(
      { clientId, id },
      {
        ...changes,
        ...(changes.enabled === true && { disabledReason: null }),
        ...((changes.enabled === true || changes.url !== undefined) && { failingSince: null }),
        updatedAt: () => 'now()',
      },
    );
    return result.affected ? this.find(clientId, id) : null;
  }

  /** Deletes the endpoint and, with it, its deliveries (pending ones are never sent). */
  async delete(clientId: number, id: number): Promise<boolean> {
    return ((await this.endpoints.delete({ clientId, id })).affected ?? 0) > 0;
  }

  /** A new secret; the one it replaces keeps signing beside it until `previousUntil`. */
  async rotateSecret(clientId: number, id: number, sealedSecret: string, previousUntil: Date): Promise<WebhookEndpointView | null> {
    const result = await this.endpoints
      .createQueryBuilder()
      .update()
      .set({ previousSecret: () => 'secret', previousSecretUntil: previousUntil, secret: sealedSecret, updatedAt: () => 'now()' })
      .where('client_id = :clientId AND id = :id', { clientId, id })
      .execute();
    return result.affected ? this.find(clientId, id) : null;
  }

  /** The client's enabled endpoints subscribed to `type` that existed when the event happened, and whether it has any endpoint at all. */
  async subscribers(clientId: number, type: BookingEventType, happenedAt: Date): Promise<{ subscribed: number[]; anyEndpoint: boolean }> {
    // One read of the client's endpoints (at most ten): those that take this event, and whether it has any.
    const rows = await this.endpoints
      .createQueryBuilder('e')
      .select('e.id', 'id')
      .addSelect('e.enabled AND :type = ANY(e.events) AND e.createdAt <= :happenedAt', 'takes')
      .where('e.clientId = :clientId', { clientId })
      .setParameters({ type, happenedAt })
      .getRawMany<{ id: number; takes: boolean }>();
    return { subscribed: rows.filter((row) => row.takes).map((row) => row.id), anyEndpoint: rows.length > 0 };
  }

  /** The clients with at least one endpoint (enabled or not), and when the statement that read them ran. */
  async clientsWithEndpoints(): Promise<{ clients: Set<number>; asOf: Date }> {
    const [row] = await this.dataSource.query<{ clients: number[] | null; asOf: Date }[]>(
      `SELECT statement_timestamp() AS "asOf", (SELECT array_agg(DISTINCT client_id) FROM webhooks.endpoints) AS clients`,
    );
    return { clients: new Set(row.clients ?? []), asOf: row.asOf };
  }

  /** The endpoints' URLs and sealed secrets, by id (for signing). */
  async secrets(ids: number[]): Promise<Map<number, EndpointSecrets>> {
    if (ids.length === 0) return new Map();
    const rows = await this.endpoints
      .createQueryBuilder('e')
      .select(['e.id', 'e.url', 'e.secret', 'e.previousSecret', 'e.previousSecretUntil'])
      .whereInIds(ids)
      .getMany();
    const now = Date.now();
    return new Map(
      rows.map((row) => [
        row.id,
        { url: row.url, sealedSecrets: [row.secret, ...(row.previousSecret && row.previousSecretUntil && row.previousSecretUntil.getTime() > now ? [row.previousSecret] : [])] },
      ]),
    );
  }
}
