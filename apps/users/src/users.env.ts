import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { ServiceEnv } from '@hotel/platform';

export class UsersEnv extends ServiceEnv {
  /** How long a user token issued by GET /api/user/{id}/token stays valid. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(30 * 24 * 3600)
  USER_TOKEN_TTL_S = 24 * 3600;
}
