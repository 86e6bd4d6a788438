import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { OfferKey } from '@hotel/inventory';

/** One hotel's lowest offer in a remote vendor's answer: its key and its price in the vendor's currency. */
export interface LowestOffer {
  key: OfferKey;
  /** Decimal, in `currency`. */
  price: string;
  currency: string;
}

export interface VendorAnswer {
  vendor: string;
  state: 'asking' | 'answered' | 'failed';
  /** An `asking` answer whose replica has not recorded it in time (it may have died): anyone may ask again. */
  lapsed: boolean;
  lowest: LowestOffer[] | null;
}

/** Remote vendors' answers to V1 search sessions (search.vendor_answers). Raw SQL: each is one statement on a poll's path. */
@Injectable()
export class VendorAnswersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Takes the asking of a vendor for a session: true when this caller is to ask it (no one
   * has, or the one who did has not answered within its time), with `leaseMs` to answer.
   */
  async claim(sessionId: string, vendor: string, leaseMs: number): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO search.vendor_answers (session_id, vendor, state, asking_until)
       VALUES ($1, $2, 'asking', now() + make_interval(secs => $3::float8 / 1000))
       ON CONFLICT (session_id, vendor) DO UPDATE SET asking_until = EXCLUDED.asking_until
         WHERE vendor_answers.state = 'asking' AND vendor_answers.asking_until < now()
       RETURNING 1`,
      [sessionId, vendor, leaseMs],
    );
    return rows.length > 0;
  }

  /** The vendor's answer (null: it failed or missed its time); once only, the first recorded stands. */
  async record(sessionId: string, vendor: string, lowest: LowestOffer[] | null): Promise<void> {
    await this.dataSource.query(
      `UPDATE search.vendor_answers SET state = $3, lowest = $4::jsonb, asking_until = NULL, answered_at = now()
        WHERE session_id = $1 AND vendor = $2 AND state = 'asking'`,
      [sessionId, vendor, lowest ? 'answered' : 'failed', lowest ? JSON.stringify(lowest) : null],
    );
  }

  async answers(sessionId: string): Promise<VendorAnswer[]> {
    const rows: { vendor: string; state: VendorAnswer['state']; lapsed: boolean; lowest: LowestOffer[] | null }[] = await this.dataSource.query(
      `SELECT vendor, state, coalesce(asking_until < now(), false) AS lapsed, lowest FROM search.vendor_answers WHERE session_id = $1`,
      [sessionId],
    );
    return rows;
  }
}
