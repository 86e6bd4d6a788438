import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { OfferKeyWire, PaymentMethod, PrebookData } from '@hotel/contracts';

export interface NewPrebook {
  id: string;
  clientId: number;
  userId: number | null;
  sandbox: boolean;
  sessionId: string | null;
  hotelId: number;
  rateId: string;
  paymentMethod: PaymentMethod;
  offer: OfferKeyWire;
  response: Omit<PrebookData, 'is_booking_processing' | 'booking_id'>;
  priceChargeable: string;
  promoCode: string | null;
  discount: string;
  expiresAt: Date;
}

export interface StoredPrebookRow {
  id: string;
  offer: OfferKeyWire;
  payment_method: PaymentMethod;
  response: PrebookData;
  price_chargeable: string;
  promo_code: string | null;
  discount: string;
  expires_at: Date;
  expired: boolean;
}

const STORED = `id, offer, payment_method, response, price_chargeable, promo_code, discount, expires_at, expires_at <= now() AS expired`;

@Injectable()
export class PrebooksRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async insert(prebook: NewPrebook): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO rates.prebooks (id, client_id, user_id, sandbox, session_id, hotel_id, rate_id, payment_method, offer, response,
                                   price_chargeable, promo_code, discount, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
      [
        prebook.id,
        prebook.clientId,
        prebook.userId,
        prebook.sandbox,
        prebook.sessionId,
        prebook.hotelId,
        prebook.rateId,
        prebook.paymentMethod,
        JSON.stringify(prebook.offer),
        JSON.stringify(prebook.response),
        prebook.priceChargeable,
        prebook.promoCode,
        prebook.discount,
        prebook.expiresAt,
      ],
    );
  }

  /**
   * The prebook a booking may rely on: by id, or the latest for the rate and payment
   * method, among those the caller reaches (its world, sandbox or live; a user's own).
   */
  async findForBooking(
    owner: { clientId: number; sandbox: boolean; userId: number | null },
    criteria: { prebookId?: string; hotelId?: number; sessionId?: string; rateId?: string; paymentMethod?: PaymentMethod },
  ): Promise<StoredPrebookRow | null> {
    const scope = [owner.clientId, owner.sandbox, owner.userId];
    const inScope = `client_id = $1 AND sandbox = $2 AND ($3::int IS NULL OR user_id = $3)`;
    const rows: StoredPrebookRow[] = criteria.prebookId
      ? await this.dataSource.query(`SELECT ${STORED} FROM rates.prebooks WHERE ${inScope} AND id = $4`, [...scope, criteria.prebookId])
      : await this.dataSource.query(
          `SELECT ${STORED} FROM rates.prebooks
            WHERE ${inScope} AND hotel_id = $4 AND session_id = $5 AND rate_id = $6 AND payment_method = $7
            ORDER BY created_at DESC LIMIT 1`,
          [...scope, criteria.hotelId, criteria.sessionId, criteria.rateId, criteria.paymentMethod],
        );
    return rows[0] ?? null;
  }

  async attachBooking(prebookId: string, bookingId: number, processing: boolean): Promise<void> {
    await this.dataSource.query(
      `UPDATE rates.prebooks SET booking_id = $2, booking_processing = $3 WHERE id = $1 AND (booking_id IS NULL OR booking_id = $2)`,
      [prebookId, bookingId, processing],
    );
  }

  /** A booking already under way for this rate by this client (set by the booking service), if any. */
  async bookingInProgress(clientId: number, hotelId: number, rateId: string, paymentMethod: PaymentMethod): Promise<number | null> {
    const rows: { booking_id: number }[] = await this.dataSource.query(
      `SELECT booking_id FROM rates.prebooks
        WHERE client_id = $1 AND hotel_id = $2 AND rate_id = $3 AND payment_method = $4 AND booking_processing
        ORDER BY created_at DESC LIMIT 1`,
      [clientId, hotelId, rateId, paymentMethod],
    );
    return rows[0]?.booking_id ?? null;
  }
}
