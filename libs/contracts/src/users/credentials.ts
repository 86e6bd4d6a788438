import { createHash } from 'node:crypto';
import {
  IsArray,
  IsDefined,
  ValidateNested,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsPositive,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { Type } from 'class-transformer';
import { Actor, ActorScoped } from '../common/actor';
import { IsFxMarginPercent, IsIsoCurrency, IsMoneyAmount, IsNonBlankString } from '../common/validators';

export const CREDENTIAL_KINDS = ['live', 'sandbox', 'backend'] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];

/** A user token starts with this (a client's keys have prefixes of their own). */
export const USER_TOKEN_PREFIX = 'hb_user_';

/**
 * How a secret is stored and asked for: its SHA-256 in hex. The secret itself
 * never crosses the bus; only the users service's tables and the caller have it.
 */
export function credentialHash(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/**
 * users.credential.resolve.v4: who a presented secret belongs to, asked by its
 * hash (v1 carried the secret in clear). `userToken` says which table holds it.
 */
export class ResolveCredentialRequest {
  @Matches(/^[0-9a-f]{64}$/, { message: 'secretHash must be a SHA-256 in hex' })
  secretHash: string;

  @IsBoolean()
  userToken: boolean;
}
/** Requests per second a credential may make, with bursts; null: the gateway's default. */
export interface RateLimit {
  rps: number;
  burst: number;
}

/**
 * How a client is priced: its account currency (ISO 4217) and its FX margin, in
 * percent, added to every conversion from a vendor's currency.
 */
export class ClientPricing {
  @IsIsoCurrency()
  currency: string;

  @IsFxMarginPercent()
  fxMarginPercent: string;
}

/** A request priced for its caller: the gateway adds the client's pricing, as it resolved the credential. */
export class PricedForActor extends ActorScoped {
  @IsDefined()
  @ValidateNested()
  @Type(() => ClientPricing)
  pricing: ClientPricing;
}

/**
 * The caller, plus the client's own rate limit when the operator set one, how the client is
 * priced, and for a client's key or backend token its id (`credentialId`; null for a user
 * token or a finance credential): a user token records the backend token that issued it.
 */
export type ResolvedCredential = Actor & { rateLimit?: RateLimit | null; pricing?: ClientPricing; credentialId?: number | null };

/** users.client.set-fx-margin.v1 (admin command line): the margin added to the client's conversions from now on. */
export class SetFxMarginRequest {
  @IsInt()
  @IsPositive()
  clientId: number;

  @IsFxMarginPercent()
  percent: string;
}

export interface ClientPricingReply extends ClientPricing {
  clientId: number;
}

/** users.client.set-rate-limit.v1 (admin command line); null values restore the default. */
export class SetRateLimitRequest {
  @IsInt()
  @IsPositive()
  clientId: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  rps: number | null;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  burst: number | null;
}

export interface ClientRateLimitReply {
  clientId: number;
  rateLimit: RateLimit | null;
}

/** users.client.create.v1 (admin command line). */
export class CreateClientRequest {
  @IsNonBlankString()
  @MaxLength(200)
  name: string;

  @IsOptional()
  @IsMoneyAmount()
  creditLimit?: string | number;

  @IsOptional()
  @IsIsoCurrency()
  currency?: string;
}

export interface ClientCredentials {
  clientId: number;
  apiKey?: string;
  sandboxApiKey?: string;
  backendToken?: string;
}

/** users.client.get.v2: a client's credit terms, for the accounting service. */
export class ClientIdRequest {
  @IsInt()
  @IsPositive()
  clientId: number;
}

export interface ClientAccountTerms {
  clientId: number;
  /** The client's (agency's) name; absent from a users replica of a release before it. */
  name?: string;
  creditLimit: string;
  currency: string;
  /** When the client was created (ISO 8601): the accounting service opens an account with the policy of its day. */
  createdAt: string;
}

/** users.client.list.v1 (admin command line). */
export class ListClientsRequest {}

/** users.client.search.v1 (the finance credential's client picker): clients by name, a part of it in any case, or by id. */
export class SearchClientsRequest {
  @IsOptional()
  @IsString()
  @MaxLength(100)
  search?: string;

  @IsInt()
  @Min(1)
  @Max(50)
  limit: number;
}

/** A client as the finance team picks it. */
export interface ClientName {
  clientId: number;
  name: string;
  currency: string;
  /** When it was deleted; null while it is active. */
  deletedAt: string | null;
}

export interface ClientSummary {
  clientId: number;
  name: string;
  creditLimit: string;
  currency: string;
  createdAt: string;
  activeCredentials: Record<CredentialKind, number>;
  /** When the client was deleted (its credentials all revoked); null while it is active. */
  deletedAt: string | null;
}

/** users.client.delete.v1 (admin command line): the client is closed for good. */
export interface DeleteClientReply {
  clientId: number;
  deletedAt: string;
  revoked: number;
  revokedUserTokens: number;
}

export interface ListClientsReply {
  clients: ClientSummary[];
}

/**
 * users.client.rotate-keys.v3 and users.client.revoke-keys.v3 (admin command line):
 * the client's keys of these kinds, and with `userTokens` every token of its users.
 * Without it, the user tokens a revoked backend token issued go too (and those that
 * do not say which one issued them, made before tokens recorded it), unless
 * `keepUserTokens`.
 */
export class ClientKeysRequest {
  @IsInt()
  @IsPositive()
  clientId: number;

  @IsArray()
  @IsIn(CREDENTIAL_KINDS, { each: true })
  kinds: CredentialKind[];

  @IsOptional()
  @IsBoolean()
  userTokens?: boolean;

  @IsOptional()
  @IsBoolean()
  keepUserTokens?: boolean;
}

/** users.client.rotate-keys.v3: the new keys, and how many user tokens went with the old ones. */
export interface RotateKeysReply extends ClientCredentials {
  revokedUserTokens: number;
}

export interface RevokeKeysReply {
  clientId: number;
  /** Keys revoked. */
  revoked: number;
  revokedUserTokens: number;
}

/**
 * events.users.credentials-revoked.v1: some credential of this client (of this
 * user, when set) stopped working or changed; gateways forget what they cached of it.
 */
export interface CredentialsRevokedEvent {
  clientId: number;
  userId?: number;
}

