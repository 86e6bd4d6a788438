import { ArrayMaxSize, IsArray, IsInt, IsPositive, Matches, Max, Min } from 'class-validator';
import { MAX_INT_ID } from '../common/validators';
import { IsCheckOutDay, STAY_LIMITS } from './stay';

/** rates.inventory.sold-out.v2: which (vendor, hotel, room type) cannot take these rooms for these nights. */
export class SoldOutRequest {
  @IsArray()
  @ArrayMaxSize(5000)
  @IsInt({ each: true })
  @IsPositive({ each: true })
  @Max(MAX_INT_ID, { each: true })
  hotelIds: number[];

  @Matches(/^\d{4}-\d{2}-\d{2}$/)
  checkIn: string;

  @IsCheckOutDay(undefined, 'checkIn')
  checkOut: string;

  @IsInt()
  @Min(1)
  @Max(STAY_LIMITS.maxRooms)
  rooms: number;
}

/** [vendor, hotelId, roomId] */
export type SoldOutRoom = [string, number, number];

export interface SoldOutReply {
  soldOut: SoldOutRoom[];
}
