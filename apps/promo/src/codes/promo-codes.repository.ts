import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CreatePromoRequest, PromoView } from '@hotel/contracts';
import { PromoCodeEntity, PromoRedemptionEntity } from './promo-code.entity';

/** A code with its uses in both worlds (`uses`: live). */
export type PromoCode = PromoView & { sandboxUses: number };

/** What a booking's redemption came to. */
export interface Redemption {
  code: string;
  discount: string;
}

/** The columns a PromoCode is read from, by name. */
const CODE_FIELDS = { code: true, kind: true, value: true, currency: true, minAmount: true, maxUses: true, uses: true, sandboxUses: true, expires: true } as const;

function toCode(entity: PromoCodeEntity): PromoCode {
  return {
    code: entity.code,
    kind: entity.kind,
    value: entity.value,
    currency: entity.currency,
    minAmount: entity.minAmount,
    maxUses: entity.maxUses,
    uses: entity.uses,
    sandboxUses: entity.sandboxUses,
    expires: entity.expires,
  };
}

/** The code's view for the admin command line (live uses). */
export function toPromoView({ sandboxUses: _sandboxUses, ...view }: PromoCode): PromoView {
  return view;
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
   * and gives the discount, and one use of the booking's world (live `uses`, or
   * `sandbox_uses`) is taken in a single conditional UPDATE, so with N uses left in a
   * world N concurrent redemptions of that world succeed and the next finds nothing
   * to take ('used-up'), whatever the other world does. The check constraints on both
   * counters back it.
   */
  redeemOnce(codeName: string, clientId: number, bookingId: number, sandbox: boolean, decide: (code: PromoCode | null) => string): Promise<Redemption | 'used-up'> {
    return this.dataSource.transaction(async (manager) => {
      const redemptions = manager.getRepository(PromoRedemptionEntity);
      // The code's row first, held to the end: two redemptions of one booking at once then run
      // one after the other, and the second finds the first's record below (read after the
      // lock, so committed) instead of counting a second use and failing on the record's key.
      const code = await manager.getRepository(PromoCodeEntity).findOne({ select: CODE_FIELDS, where: { code: codeName }, lock: { mode: 'pessimistic_write' } });
      const previous = await redemptions.findOne({ select: { code: true, discount: true }, where: { clientId, bookingId } });
      if (previous) return { code: previous.code, discount: previous.discount };
      const discount = decide(code ? toCode(code) : null);
      // The column is chosen here, never from input: one of two fixed names.
      const counter = sandbox ? 'sandbox_uses' : 'uses';
      const taken = await manager
        .createQueryBuilder()
        .update(PromoCodeEntity)
        .set(sandbox ? { sandboxUses: () => 'sandbox_uses + 1' } : { uses: () => 'uses + 1' })
        .where('code = :code', { code: codeName })
        .andWhere(`(max_uses IS NULL OR ${counter} < max_uses)`)
        .andWhere('(expires IS NULL OR expires >= current_date)')
        .execute();
      if (taken.affected !== 1) return 'used-up';
      await redemptions.insert({ code: codeName, clientId, bookingId, discount, sandbox });
      return { code: codeName, discount };
    });
  }
}
