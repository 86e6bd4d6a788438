import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SoldOutRoom } from '@hotel/contracts';

@Injectable()
export class AllotmentsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Room types that cannot take `rooms` more rooms on at least one night of the stay. */
  async soldOut(hotelIds: number[], checkIn: string, checkOut: string, rooms: number): Promise<SoldOutRoom[]> {
    if (hotelIds.length === 0) return [];
    const rows: { vendor: string; hotel_id: number; room_id: number }[] = await this.dataSource.query(
      `SELECT DISTINCT vendor, hotel_id, room_id
         FROM rates.allotments
        WHERE hotel_id = ANY($1::int[]) AND night >= $2::date AND night < $3::date AND rooms_sold + $4 > capacity`,
      [hotelIds, checkIn, checkOut, rooms],
    );
    return rows.map((row) => [row.vendor, row.hotel_id, row.room_id]);
  }
}
