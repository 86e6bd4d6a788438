import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Rooms sold per vendor, hotel, room type and night (table rates.allotments). A row
 * appears with the first booking of that night; its capacity is the vendor's allotment.
 */
@Entity({ schema: 'rates', name: 'allotments' })
export class AllotmentEntity {
  @PrimaryColumn({ name: 'hotel_id', type: 'integer' })
  hotelId: number;

  /** YYYY-MM-DD. */
  @PrimaryColumn({ type: 'date' })
  night: string;

  @PrimaryColumn({ type: 'text' })
  vendor: string;

  @PrimaryColumn({ name: 'room_id', type: 'integer' })
  roomId: number;

  @Column({ type: 'integer' })
  capacity: number;

  /** Taken only by the conditional upsert in SupplierBookingTransaction.take (never above capacity; a check constraint backs it). */
  @Column({ name: 'rooms_sold', type: 'integer', default: 0 })
  roomsSold: number;
}
