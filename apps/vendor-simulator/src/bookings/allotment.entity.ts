import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Rooms a vendor sold of one room type at one hotel on one night (vendor_simulator.allotments).
 * A row appears with the first booking of that night; its capacity is the vendor's allotment.
 */
@Entity({ schema: 'vendor_simulator', name: 'allotments' })
export class AllotmentEntity {
  @PrimaryColumn({ type: 'text' })
  vendor: string;

  @PrimaryColumn({ name: 'hotel_code', type: 'integer' })
  hotelCode: number;

  @PrimaryColumn({ name: 'room_id', type: 'integer' })
  roomId: number;

  /** YYYY-MM-DD. */
  @PrimaryColumn({ type: 'date' })
  night: string;

  @Column({ type: 'integer' })
  capacity: number;

  /** Taken only by the conditional upsert in BookingsRepository (never above capacity; a check constraint backs it). */
  @Column({ name: 'rooms_sold', type: 'integer', default: 0 })
  roomsSold: number;
}
