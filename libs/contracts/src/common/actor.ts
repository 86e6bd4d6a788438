import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsIn, IsInt, IsOptional, IsPositive, Min, ValidateNested } from 'class-validator';

/** `finance`: the finance team's operator credential, which works every client's ledger (see FINANCE_NO_CLIENT). */
export const ACTOR_ROLES = ['api', 'backend', 'user', 'finance'] as const;
export type ActorRole = (typeof ACTOR_ROLES)[number];

/**
 * Who is calling, as the gateway authenticated it. Every request that reads or
 * writes client data carries it; services scope every query by `clientId`.
 */
export class Actor {
  /** The client acted for; a finance actor names it per request (FINANCE_NO_CLIENT until it does). */
  @IsInt()
  @Min(0)
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

/**
 * The clientId of a finance actor that names no client: no client has it (ids start
 * at 1), so a query scoped by it finds nothing, and only finance-aware handlers read it.
 */
export const FINANCE_NO_CLIENT = 0;
