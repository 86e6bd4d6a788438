import { Injectable } from '@nestjs/common';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';

/** Snapshots of which clients have endpoints are taken at most this often (one query for every event in between). */
export const SNAPSHOT_INTERVAL_MS = 250;

/** Which clients had at least one endpoint when the snapshot's statement ran (the database's clock). */
export interface EndpointClientsSnapshot {
  clients: ReadonlySet<number>;
  asOf: Date;
}

/**
 * Whether an event may be owed to any endpoint, without a query per event: most booking
 * events are of clients that have no endpoint, and an endpoint takes only the events that
 * happen after its creation. So an event of a client without an endpoint in a snapshot
 * taken after the event happened is owed to none, and is skipped. An event newer than the
 * last snapshot waits for the next (at most SNAPSHOT_INTERVAL_MS); a client with an
 * endpoint in the snapshot takes the full path (its endpoints read, as before).
 * Per replica, and only a cache: every replica decides alike from the database.
 */
@Injectable()
export class EndpointClients {
  private snapshot?: EndpointClientsSnapshot;
  private next?: Promise<EndpointClientsSnapshot>;
  private lastTakenAt = 0;

  constructor(private readonly endpoints: WebhookEndpointsRepository) {}

  /** False when no endpoint of the client existed when the event happened; true when one may have. */
  async mayBeOwed(clientId: number, happenedAt: Date): Promise<boolean> {
    let snapshot = this.snapshot;
    if (snapshot?.clients.has(clientId)) return true;
    if (!snapshot || snapshot.asOf < happenedAt) snapshot = await this.nextSnapshot();
    // A snapshot still older than the event (the clocks of two hosts): the full path decides.
    return snapshot.asOf < happenedAt || snapshot.clients.has(clientId);
  }

  /** The next snapshot, shared by every event that waits for it. */
  private nextSnapshot(): Promise<EndpointClientsSnapshot> {
    this.next ??= (async () => {
      const waitMs = this.lastTakenAt + SNAPSHOT_INTERVAL_MS - Date.now();
      if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
      this.lastTakenAt = Date.now();
      try {
        this.snapshot = await this.endpoints.clientsWithEndpoints();
        return this.snapshot;
      } finally {
        this.next = undefined;
      }
    })();
    return this.next;
  }
}
