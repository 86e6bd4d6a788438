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

  /** A booking already under way for this rate by this client (set by the booking service), if any. */
  async bookingInProgress(clientId: number, hotelId: number, rateId: string, paymentMethod: PaymentMethod): Promise<number | null> {
    const rows: { booking_id: number }[] = await this.dataSource.query(
      `SELECT booking_id FROM rates.prebooks
        WHERE client_id = $1 AND hotel_id = $2 AND rate_id = $3 AND payment_method = $4 AND booking_id IS NOT NULL
        ORDER BY created_at DESC LIMIT 1`,
      [clientId, hotelId, rateId, paymentMethod],
    );
    return rows[0]?.booking_id ?? null;
  }
}
