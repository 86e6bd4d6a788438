import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import { AMOUNT_COLUMN } from '@hotel/platform';
import { PromoView } from '@hotel/contracts';

/** A promo code (table promo.codes); money as exact decimal strings. */
@Entity({ schema: 'promo', name: 'codes' })
export class PromoCodeEntity {
  @PrimaryColumn({ type: 'text' })
  code: string;

  @Column({ type: 'text' })
  kind: PromoView['kind'];

  @Column({ type: 'numeric', precision: 15, scale: 3, transformer: AMOUNT_COLUMN })
  value: string;

  @Column({ type: 'char', length: 3 })
  currency: string;

  @Column({ name: 'min_amount', type: 'numeric', precision: 15, scale: 3, nullable: true, transformer: AMOUNT_COLUMN })
  minAmount: string | null;

  @Column({ name: 'max_uses', type: 'integer', nullable: true })
  maxUses: number | null;

  /** Live uses. Taken only by the one conditional UPDATE in PromoCodesRepository.redeemOnce. */
  @Column({ type: 'integer', default: 0 })
  uses: number;

  /** Sandbox uses: counted apart from the live ones, against the same max_uses (a sandbox booking never uses up a live code). */
  @Column({ name: 'sandbox_uses', type: 'integer', default: 0 })
  sandboxUses: number;

  /** Last valid day (YYYY-MM-DD), or null. */
  @Column({ type: 'date', nullable: true })
  expires: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

/** One use of a code by one booking (table promo.redemptions): a booking redeems at most once. */
@Entity({ schema: 'promo', name: 'redemptions' })
export class PromoRedemptionEntity {
  @PrimaryColumn({ name: 'client_id', type: 'integer' })
  clientId: number;

  @PrimaryColumn({ name: 'booking_id', type: 'integer' })
  bookingId: number;

  @Column({ type: 'text' })
  code: string;

  @Column({ type: 'numeric', precision: 15, scale: 3, transformer: AMOUNT_COLUMN })
  discount: string;

  /** The world whose use it took. */
  @Column({ type: 'boolean', default: false })
  sandbox: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
