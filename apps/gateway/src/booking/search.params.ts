import { IsUUID } from 'class-validator';
import { IsIdString } from '@hotel/contracts';

export class SessionParams {
  @IsUUID('all', { message: 'session_id must be a UUID' })
  session_id: string;
}

export class HotelSessionParams extends SessionParams {
  @IsIdString()
  hotel_id: string;
}
