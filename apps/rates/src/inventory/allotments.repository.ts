import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SoldOutRoom } from '@hotel/contracts';
import { AllotmentEntity } from './allotment.entity';

@Injectable()
export class AllotmentsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Room types that cannot take `rooms` more rooms on at least one night of the stay. */
  async soldOut(hotelIds: number[], checkIn: string, checkOut: string, rooms: number): Promise<SoldOutRoom[]> {
    if (hotelIds.length === 0) return [];
    // A DISTINCT projection, not allotment rows: read raw (an entity would bring the whole key back).
    const rows = await this.dataSource
      .getRepository(AllotmentEntity)
      .createQueryBuilder('a')
      .select('a.vendor', 'vendor')
      .addSelect('a.hotelId', 'hotel_id')
      .addSelect('a.roomId', 'room_id')
      .distinct(true)
      // One array parameter, whatever the number of hotels: one statement text (prepared once).
      .where('a.hotelId = ANY(CAST(:hotelIds AS int[]))', { hotelIds })
      .andWhere('a.night >= CAST(:checkIn AS date)', { checkIn })
      .andWhere('a.night < CAST(:checkOut AS date)', { checkOut })
      .andWhere('a.roomsSold + :rooms > a.capacity', { rooms })
      .getRawMany<{ vendor: string; hotel_id: number; room_id: number }>();
    return rows.map((row) => [row.vendor, row.hotel_id, row.room_id]);
  }
}
