import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CreatePromoRequest, PromoView } from '@hotel/contracts';
import { PromoCodeEntity, PromoRedemptionEntity } from './promo-code.entity';

export type PromoCode = PromoView;

/** What a booking's redemption came to. */
export interface Redemption {
  code: string;
  discount: string;
}

/** The columns a PromoCode is read from, by name. */
const CODE_FIELDS = { code: true, kind: true, value: true, currency: true, minAmount: true, maxUses: true, uses: true, expires: true } as const;

function toCode(entity: PromoCodeEntity): PromoCode {
  return {
    code: entity.code,
    kind: entity.kind,
    value: entity.value,
    currency: entity.currency,
    minAmount: entity.minAmount,
    maxUses: entity.maxUses,
    uses: entity.uses,
    expires: entity.expires,
  };
}

/** Promo codes and their redemptions. Owns its transactions: callers never see a connection. */
@Injectable()
export class PromoCodesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Inserts a code; null when the code exists already. */
  async create(request: CreatePromoRequest): Promise<PromoCode | null> {
    const inserted = await this.dataSource
      .createQueryBuilder()
      .insert()
      .into(PromoCodeEntity)
      .values({
        code: request.code,
        kind: request.kind,
        value: String(request.value),
        currency: request.currency,
        minAmount: request.minAmount === undefined ? null : String(request.minAmount),
        maxUses: request.maxUses ?? null,
        expires: request.expires ?? null,
      })
      .orIgnore()
      .returning(['code'])
      .execute();
    return inserted.raw.length ? this.find(request.code) : null;
  }

  async find(code: string): Promise<PromoCode | null> {
    const entity = await this.dataSource.getRepository(PromoCodeEntity).findOne({ select: CODE_FIELDS, where: { code } });
    return entity ? toCode(entity) : null;
  }

  /**
   * One booking's redemption, at most once, in one transaction: a repeat for the
   * same booking finds the first; else `decide` checks the code (as it is now)
   * and gives the discount, and one use is taken in a single conditional UPDATE, so
   * with N uses left N concurrent redemptions succeed and the next finds nothing to
   * take ('used-up'). The check constraint on `uses` backs it.
   */
  redeemOnce(codeName: string, clientId: number, bookingId: number, decide: (code: PromoCode | null) => string): Promise<Redemption | 'used-up'> {
    return this.dataSource.transaction(async (manager) => {
      const redemptions = manager.getRepository(PromoRedemptionEntity);
      const previous = await redemptions.findOne({ select: { code: true, discount: true }, where: { clientId, bookingId } });
      if (previous) return { code: previous.code, discount: previous.discount };
      const code = await manager.getRepository(PromoCodeEntity).findOne({ select: CODE_FIELDS, where: { code: codeName } });
      const discount = decide(code ? toCode(code) : null);
      const taken = await manager
        .createQueryBuilder()
        .update(PromoCodeEntity)
        .set({ uses: () => 'uses + 1' })
        .where('code = :code', { code: codeName })
        .andWhere('(max_uses IS NULL OR uses < max_uses)')
        .andWhere('(expires IS NULL OR expires >= current_date)')
        .execute();
      if (taken.affected !== 1) return 'used-up';
      await redemptions.insert({ code: codeName, clientId, bookingId, discount });
      return { code: codeName, discount };
    });
  }
}
