import { IsInt, IsPositive, MaxLength } from 'class-validator';
import { IsNonBlankString } from '../common/validators';

/** A finance operator token starts with this. */
export const FINANCE_TOKEN_PREFIX = 'hb_fin_';

/** users.finance-token.create.v1 (admin command line): a finance operator credential, named for whoever holds it. */
export class CreateFinanceTokenRequest {
  @IsNonBlankString()
  @MaxLength(200)
  name: string;
}

export interface FinanceTokenCreated {
  tokenId: number;
  name: string;
  /** Shown once; stored only as its hash. */
  token: string;
}

/** users.finance-token.revoke.v1 (admin command line). */
export class RevokeFinanceTokenRequest {
  @IsInt()
  @IsPositive()
  tokenId: number;
}

export interface FinanceTokenRevoked {
  tokenId: number;
  /** When it was revoked (a repeat answers the first time). */
  revokedAt: string;
}
