import {
  ArrayNotEmpty,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsPositive,
  IsString,
  Length,
  Matches,
  MaxLength,
} from 'class-validator';
import { Actor } from '../common/actor';
import { IsMoneyAmount, IsNonBlankString } from '../common/validators';

export const CREDENTIAL_KINDS = ['live', 'sandbox', 'backend'] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];

/** users.credential.resolve.v1: turn a presented secret into the caller it belongs to. */
export class ResolveCredentialRequest {
  @IsString()
  @Length(1, 512)
  token: string;
}
export type ResolvedCredential = Actor;

/** users.client.create.v1 (admin command line). */
export class CreateClientRequest {
  @IsNonBlankString()
  @MaxLength(200)
  name: string;

  @IsOptional()
  @IsMoneyAmount()
  creditLimit?: string | number;

  @IsOptional()
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be a three-letter ISO 4217 code such as USD' })
  currency?: string;
}

export interface ClientCredentials {
  clientId: number;
  apiKey?: string;
  sandboxApiKey?: string;
  backendToken?: string;
}

/** users.client.list.v1 (admin command line). */
export class ListClientsRequest {}

export interface ClientSummary {
  clientId: number;
  name: string;
  creditLimit: string;
  currency: string;
  createdAt: string;
  activeCredentials: Record<CredentialKind, number>;
}

export interface ListClientsReply {
  clients: ClientSummary[];
}

/** users.client.rotate-keys.v1 and users.client.revoke-keys.v1 (admin command line). */
export class ClientKeysRequest {
  @IsInt()
  @IsPositive()
  clientId: number;

  @IsArray()
  @ArrayNotEmpty()
  @IsIn(CREDENTIAL_KINDS, { each: true })
  kinds: CredentialKind[];
}

export interface RevokeKeysReply {
  clientId: number;
  revoked: number;
}

