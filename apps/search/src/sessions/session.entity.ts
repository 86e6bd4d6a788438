import { Column, Entity, PrimaryColumn } from 'typeorm';
import { RoomRequest } from '@hotel/contracts';
import { DECIMAL_COLUMN } from '@hotel/platform';

/** A V1 search (table search.sessions): what was asked and when; results are derived from it on every poll. */
@Entity({ schema: 'search', name: 'sessions' })
export class SessionEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'client_id', type: 'integer' })
  clientId: number;

  @Column({ name: 'user_id', type: 'integer', nullable: true })
  userId: number | null;

  @Column({ name: 'place_id', type: 'text' })
  placeId: string;

  @Column({ name: 'check_in', type: 'date' })
  checkIn: string;

  @Column({ name: 'check_out', type: 'date' })
  checkOut: string;

  @Column({ type: 'jsonb' })
  rooms: RoomRequest[];

  /** The 15-minute price step the session was priced in (bigint: a string from the driver). */
  @Column({ name: 'price_epoch', type: 'bigint' })
  priceEpoch: string;

  /** The client's account currency and FX margin when the session began: its prices are in them. */
  @Column({ type: 'char', length: 3 })
  currency: string;

  @Column({ name: 'fx_margin_percent', type: 'numeric', precision: 5, scale: 2, transformer: DECIMAL_COLUMN })
  fxMarginPercent: string;

  /** The reference date of the exchange rates in force when the session began (null before sessions kept it). */
  @Column({ name: 'fx_date', type: 'date', nullable: true })
  fxDate: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', default: () => 'now()' })
  lastUsedAt: Date;
}

/** When a session first asked for one hotel's rates (table search.hotel_views): its vendors answer from then on. */
@Entity({ schema: 'search', name: 'hotel_views' })
export class HotelViewEntity {
  @PrimaryColumn({ name: 'session_id', type: 'uuid' })
  sessionId: string;

  @PrimaryColumn({ name: 'hotel_id', type: 'integer' })
  hotelId: number;

  @Column({ name: 'first_requested_at', type: 'timestamptz', default: () => 'now()' })
  firstRequestedAt: Date;
}
