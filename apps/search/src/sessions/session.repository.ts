import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ClientPricing, RoomRequest } from '@hotel/contracts';
import { SessionEntity } from './session.entity';

export interface SearchSession {
  id: string;
  clientId: number;
  userId: number | null;
  placeId: string;
  checkIn: string;
  checkOut: string;
  rooms: RoomRequest[];
  priceEpoch: number;
  /** The client's pricing when the session began, and the reference date of the exchange rates in force then. */
  pricing: ClientPricing;
  fxDate: string | null;
  createdAt: Date;
  /** Milliseconds since the session was created, by the database's clock (the same for every replica). */
  elapsedMs: number;
  /** Seconds since the session was last used. */
  idleSeconds: number;
}

/** Times by the database's clock (the same for every replica): since creation, and since the last use. */
const ELAPSED_MS = '(extract(epoch FROM now() - s.created_at) * 1000)::float8';
const IDLE_S = 'extract(epoch FROM now() - s.last_used_at)::float8';

function toSession(entity: SessionEntity, elapsedMs: number, idleSeconds: number): SearchSession {
  return {
    id: entity.id,
    clientId: entity.clientId,
    userId: entity.userId,
    placeId: entity.placeId,
    checkIn: entity.checkIn,
    checkOut: entity.checkOut,
    rooms: entity.rooms,
    priceEpoch: Number(entity.priceEpoch),
    pricing: { currency: entity.currency, fxMarginPercent: entity.fxMarginPercent },
    fxDate: entity.fxDate,
    createdAt: entity.createdAt,
    elapsedMs,
    idleSeconds,
  };
}

/** V1 search sessions and the hotels each has asked about. */
@Injectable()
export class SessionRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get sessions() {
    return this.dataSource.getRepository(SessionEntity);
  }

  async create(session: Omit<SearchSession, 'createdAt' | 'elapsedMs' | 'idleSeconds'>): Promise<SearchSession> {
    const values = {
      id: session.id,
      clientId: session.clientId,
      userId: session.userId,
      placeId: session.placeId,
      checkIn: session.checkIn,
      checkOut: session.checkOut,
      rooms: session.rooms,
      priceEpoch: String(session.priceEpoch),
      currency: session.pricing.currency,
      fxMarginPercent: session.pricing.fxMarginPercent,
      fxDate: session.fxDate,
    };
    const inserted = await this.sessions.createQueryBuilder().insert().values(values).returning(['created_at']).execute();
    const createdAt = (inserted.raw as { created_at: Date }[])[0].created_at;
    return toSession(Object.assign(new SessionEntity(), values, { createdAt, lastUsedAt: createdAt }), 0, 0);
  }

  async find(id: string): Promise<SearchSession | null> {
    const { entities, raw } = await this.sessions
      .createQueryBuilder('s')
      .select(['s.id', 's.clientId', 's.userId', 's.placeId', 's.checkIn', 's.checkOut', 's.rooms', 's.priceEpoch', 's.currency', 's.fxMarginPercent', 's.fxDate', 's.createdAt'])
      .addSelect(ELAPSED_MS, 'elapsed_ms')
      .addSelect(IDLE_S, 'idle_s')
      .where('s.id = :id', { id })
      .getRawAndEntities<{ elapsed_ms: number; idle_s: number }>();
    return entities.length ? toSession(entities[0], raw[0].elapsed_ms, raw[0].idle_s) : null;
  }

  /** Marks a session used. */
  async touch(id: string): Promise<void> {
    await this.sessions.createQueryBuilder().update().set({ lastUsedAt: () => 'now()' }).where('id = :id', { id }).execute();
  }

  /** Milliseconds since this session first asked for this hotel's rates (0 on the first ask). */
  async hotelViewElapsedMs(sessionId: string, hotelId: number): Promise<number> {
    // Raw SQL: insert-or-read in one statement (the query builder would need two round
    // trips, and this runs on every hotel rates request).
    const rows: { elapsed_ms: number }[] = await this.dataSource.query(
      `WITH inserted AS (
         INSERT INTO search.hotel_views (session_id, hotel_id) VALUES ($1, $2)
         ON CONFLICT (session_id, hotel_id) DO NOTHING RETURNING first_requested_at)
       SELECT (extract(epoch FROM now() - first_requested_at) * 1000)::float8 AS elapsed_ms FROM inserted
       UNION ALL
       SELECT (extract(epoch FROM now() - first_requested_at) * 1000)::float8 FROM search.hotel_views
        WHERE session_id = $1 AND hotel_id = $2
       LIMIT 1`,
      [sessionId, hotelId],
    );
    return rows[0]?.elapsed_ms ?? 0;
  }

  /** Forgets sessions idle for longer than ttlSeconds (they answer 404 already). */
  async deleteIdle(ttlSeconds: number): Promise<number> {
    const deleted = await this.sessions
      .createQueryBuilder()
      .delete()
      .where('last_used_at < now() - make_interval(secs => :ttlSeconds)', { ttlSeconds })
      .execute();
    return deleted.affected ?? 0;
  }
}
