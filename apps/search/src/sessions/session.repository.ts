import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { RoomRequest } from '@hotel/contracts';
import { rowsOf } from '@hotel/platform';

export interface SearchSession {
  id: string;
  clientId: number;
  userId: number | null;
  placeId: string;
  checkIn: string;
  checkOut: string;
  rooms: RoomRequest[];
  priceEpoch: number;
  createdAt: Date;
  /** Milliseconds since the session was created, by the database's clock (the same for every replica). */
  elapsedMs: number;
  /** Seconds since the session was last used. */
  idleSeconds: number;
}

interface SessionRow {
  id: string;
  client_id: number;
  user_id: number | null;
  place_id: string;
  check_in: string;
  check_out: string;
  rooms: RoomRequest[];
  price_epoch: string;
  created_at: Date;
  elapsed_ms: number;
  idle_s: number;
}

const SELECT = `SELECT id, client_id, user_id, place_id, to_char(check_in, 'YYYY-MM-DD') AS check_in,
                       to_char(check_out, 'YYYY-MM-DD') AS check_out, rooms, price_epoch, created_at,
                       (extract(epoch FROM now() - created_at) * 1000)::float8 AS elapsed_ms,
                       extract(epoch FROM now() - last_used_at)::float8 AS idle_s
                  FROM search.sessions`;

function toSession(row: SessionRow): SearchSession {
  return {
    id: row.id,
    clientId: row.client_id,
    userId: row.user_id,
    placeId: row.place_id,
    checkIn: row.check_in,
    checkOut: row.check_out,
    rooms: row.rooms,
    priceEpoch: Number(row.price_epoch),
    createdAt: row.created_at,
    elapsedMs: row.elapsed_ms,
    idleSeconds: row.idle_s,
  };
}

@Injectable()
export class SessionRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async create(session: Omit<SearchSession, 'createdAt' | 'elapsedMs' | 'idleSeconds'>): Promise<SearchSession> {
    const rows: SessionRow[] = await this.dataSource.query(
      `WITH inserted AS (
         INSERT INTO search.sessions (id, client_id, user_id, place_id, check_in, check_out, rooms, price_epoch)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *)
       ${SELECT.replace('FROM search.sessions', 'FROM inserted')}`,
      [session.id, session.clientId, session.userId, session.placeId, session.checkIn, session.checkOut, JSON.stringify(session.rooms), session.priceEpoch],
    );
    return toSession(rows[0]);
  }

  async find(id: string): Promise<SearchSession | null> {
    const rows: SessionRow[] = await this.dataSource.query(`${SELECT} WHERE id = $1`, [id]);
    return rows.length ? toSession(rows[0]) : null;
  }

  /** Marks a session used. */
  async touch(id: string): Promise<void> {
    await this.dataSource.query(`UPDATE search.sessions SET last_used_at = now() WHERE id = $1`, [id]);
  }

  /** Milliseconds since this session first asked for this hotel's rates (0 on the first ask). */
  async hotelViewElapsedMs(sessionId: string, hotelId: number): Promise<number> {
    const rows = rowsOf<{ elapsed_ms: number }>(
      await this.dataSource.query(
        `WITH inserted AS (
           INSERT INTO search.hotel_views (session_id, hotel_id) VALUES ($1, $2)
           ON CONFLICT (session_id, hotel_id) DO NOTHING RETURNING first_requested_at)
         SELECT (extract(epoch FROM now() - first_requested_at) * 1000)::float8 AS elapsed_ms FROM inserted
         UNION ALL
         SELECT (extract(epoch FROM now() - first_requested_at) * 1000)::float8 FROM search.hotel_views
          WHERE session_id = $1 AND hotel_id = $2
         LIMIT 1`,
        [sessionId, hotelId],
      ),
    );
    return rows[0]?.elapsed_ms ?? 0;
  }

  /** Forgets sessions idle for longer than ttlSeconds (they answer 404 already). */
  async deleteIdle(ttlSeconds: number): Promise<number> {
    const rows = rowsOf(
      await this.dataSource.query(`DELETE FROM search.sessions WHERE last_used_at < now() - make_interval(secs => $1) RETURNING id`, [ttlSeconds]),
    );
    return rows.length;
  }
}
