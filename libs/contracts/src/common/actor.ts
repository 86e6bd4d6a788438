import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsIn, IsInt, IsOptional, IsPositive, ValidateNested } from 'class-validator';

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

/** A request made for an authenticated caller: services scope it by `actor.clientId`. */
export class ActorScoped {
  @IsDefined()
  @ValidateNested()
  @Type(() => Actor)
  actor: Actor;
}
