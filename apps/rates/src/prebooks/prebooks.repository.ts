import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { BookingFx, OfferKeyWire, PaymentMethod, PrebookData, milliToDecimal, toMilli } from '@hotel/contracts';
import { PrebookEntity } from './prebook.entity';

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
  response: PrebookData;
  priceChargeable: string;
  promoCode: string | null;
  discount: string;
  fx: BookingFx;
  expiresAt: Date;
}

/** What a booking reads of its prebook, and whether it has expired (by the database's clock). */
export type StoredPrebookRecord = Pick<PrebookEntity, 'id' | 'offer' | 'paymentMethod' | 'response' | 'priceChargeable' | 'promoCode' | 'discount' | 'expiresAt'> & {
  expired: boolean;
  fx: BookingFx;
};

const FX_FIELDS = ['vendorCurrency', 'vendorPrice', 'fxRate', 'fxRateDate', 'fxMarginPercent'] as const;

/** A prebook's FX terms; one made before currencies were priced was in USD from a USD vendor, at 1. */
function fxOf(prebook: PrebookEntity): BookingFx {
  if (prebook.vendorCurrency === null) {
    const vendorPrice = milliToDecimal(toMilli(prebook.priceChargeable) + toMilli(prebook.discount));
    return { vendorCurrency: prebook.response.rate.price_currency, vendorPrice, fxRate: '1', fxRateDate: null, fxMarginPercent: '0' };
  }
  return { vendorCurrency: prebook.vendorCurrency, vendorPrice: prebook.vendorPrice!, fxRate: prebook.fxRate!, fxRateDate: prebook.fxRateDate, fxMarginPercent: prebook.fxMarginPercent! };
}

/** Prebooks (`rates.prebooks`): one statement per call, all on the prebook and book hot paths. */
@Injectable()
export class PrebooksRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private get prebooks() {
    return this.dataSource.getRepository(PrebookEntity);
  }

  /** One INSERT; nothing is read back (the defaults are not needed). */
  async insert(prebook: NewPrebook): Promise<void> {
    await this.dataSource
      .createQueryBuilder()
      .insert()
      .into(PrebookEntity)
      .values({
        id: prebook.id,
        clientId: prebook.clientId,
        userId: prebook.userId,
        sandbox: prebook.sandbox,
        sessionId: prebook.sessionId,
        hotelId: prebook.hotelId,
        rateId: prebook.rateId,
        paymentMethod: prebook.paymentMethod,
        offer: prebook.offer,
        response: prebook.response,
        priceChargeable: prebook.priceChargeable,
        promoCode: prebook.promoCode,
        discount: prebook.discount,
        ...prebook.fx,
        expiresAt: prebook.expiresAt,
      })
      .updateEntity(false)
      .execute();
  }

  /**
   * The prebook a booking may rely on: by id, or the latest for the rate and payment
   * method, among those the caller reaches (its world, sandbox or live; a user's own).
   */
  async findForBooking(
    owner: { clientId: number; sandbox: boolean; userId: number | null },
    criteria: { prebookId?: string; hotelId?: number; sessionId?: string; rateId?: string; paymentMethod?: PaymentMethod },
  ): Promise<StoredPrebookRecord | null> {
    const query = this.prebooks
      .createQueryBuilder('p')
      .select(['p.id', 'p.offer', 'p.paymentMethod', 'p.response', 'p.priceChargeable', 'p.promoCode', 'p.discount', 'p.expiresAt', ...FX_FIELDS.map((field) => `p.${field}`)])
      .addSelect('p.expiresAt <= now()', 'expired')
      .where('p.clientId = :clientId', { clientId: owner.clientId })
      .andWhere('p.sandbox = :sandbox', { sandbox: owner.sandbox });
    if (owner.userId !== null) query.andWhere('p.userId = :userId', { userId: owner.userId });
    if (criteria.prebookId) {
      query.andWhere('p.id = :prebookId', { prebookId: criteria.prebookId });
    } else {
      // A missing criterion matches nothing (= NULL), as a bound parameter.
      query
        .andWhere('p.hotelId = :hotelId', { hotelId: criteria.hotelId })
        .andWhere('p.sessionId = :sessionId', { sessionId: criteria.sessionId })
        .andWhere('p.rateId = :rateId', { rateId: criteria.rateId })
        .andWhere('p.paymentMethod = :paymentMethod', { paymentMethod: criteria.paymentMethod })
        .orderBy('p.createdAt', 'DESC')
        .limit(1);
    }
    const { entities, raw } = await query.getRawAndEntities<{ expired: boolean }>();
    const prebook = entities[0];
    return prebook ? { ...prebook, expired: raw[0].expired, fx: fxOf(prebook) } : null;
  }

  /** Marks the booking made from a prebook (a prebook backs one booking only: another booking id changes nothing). */
  async attachBooking(prebookId: string, bookingId: number, processing: boolean): Promise<void> {
    await this.prebooks
      .createQueryBuilder()
      .update()
      .set({ bookingId, bookingProcessing: processing })
      .where('id = :prebookId', { prebookId })
      .andWhere('(booking_id IS NULL OR booking_id = :bookingId)', { bookingId })
      .execute();
  }

  /** A booking already under way for this rate by this client (set by the booking service), if any. */
  async bookingInProgress(clientId: number, hotelId: number, rateId: string, paymentMethod: PaymentMethod): Promise<number | null> {
    const prebook = await this.prebooks.findOne({
      select: { bookingId: true },
      where: { clientId, hotelId, rateId, paymentMethod, bookingProcessing: true },
      order: { createdAt: 'DESC' },
    });
    return prebook?.bookingId ?? null;
  }
}
