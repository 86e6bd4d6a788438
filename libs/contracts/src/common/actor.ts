import { IsBoolean, IsIn, IsInt, IsOptional, IsPositive } from 'class-validator';

export const ACTOR_ROLES = ['api', 'backend', 'user'] as const;
export type ActorRole = (typeof ACTOR_ROLES)[number];

/**
 * Who is calling, as the gateway authenticated it. Every request that reads or
 * writes client data carries it; services scope every query by `clientId`.
 */
export class Actor {
  @IsInt()
  @IsPositive()
  clientId: number;

  /** Set when the caller used a user token. */
  @IsOptional()
  @IsInt()
  @IsPositive()
  userId: number | null;

  @IsIn(ACTOR_ROLES)
  role: ActorRole;

  /** True for a sandbox API key: bookings are tests and move no money. */
  @IsBoolean()
  sandbox: boolean;
}
