import { ArrayMaxSize, IsArray, IsInt, IsPositive, Max, Min } from 'class-validator';
import { MAX_INT_ID } from '../common/validators';
import { IsCheckOutDay, STAY_LIMITS } from './stay';
import { Matches } from 'class-validator';

/** rates.inventory.sold-out.v1: which (vendor, hotel, room type) cannot take these rooms for these nights. */
export class SoldOutRequest {
  @IsArray()
  @ArrayMaxSize(5000)
  @IsInt({ each: true })
  @IsPositive({ each: true })
  @Max(MAX_INT_ID, { each: true })
  hotel_ids: number[];

  @Matches(/^\d{4}-\d{2}-\d{2}$/)
  check_in: string;

  @IsCheckOutDay()
  check_out: string;

  @IsInt()
  @Min(1)
  @Max(STAY_LIMITS.maxRooms)
  rooms: number;
}

/** [vendor, hotel_id, room_id] */
export type SoldOutRoom = [string, number, number];

export interface SoldOutReply {
  sold_out: SoldOutRoom[];
}
