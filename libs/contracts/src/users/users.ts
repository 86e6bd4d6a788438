import { Type } from 'class-transformer';
import {
  IsDefined,
  IsEmail,
  IsInt,
  IsNotEmptyObject,
  IsOptional,
  IsPositive,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { ActorScoped } from '../common/actor';
import { IDEMPOTENCY_KEY_PATTERN, IsMoneyAmount, IsNonBlankString, IsOmittable } from '../common/validators';

/** Body of `POST /api/user`, validated as the specification gives it. */
export class NewUser {
  @IsNonBlankString()
  @MaxLength(100)
  firstName: string;

  @IsNonBlankString()
  @MaxLength(100)
  lastName: string;

  @IsEmail({}, { message: 'email must be a valid e-mail address' })
  @MaxLength(254)
  email: string;

  @IsNonBlankString()
  @MaxLength(40)
  phone: string;

  @IsDefined()
  @IsMoneyAmount({ allowString: false })
  clientAccountLimit: number;
}

/** Body of `PUT /api/user/{id}`: every field optional, validated when present. */
export class UserChanges {
  @IsOmittable()
  @IsNonBlankString()
  @MaxLength(100)
  firstName?: string;

  @IsOmittable()
  @IsNonBlankString()
  @MaxLength(100)
  lastName?: string;

  @IsOmittable()
  @IsEmail({}, { message: 'email must be a valid e-mail address' })
  @MaxLength(254)
  email?: string;

  @IsOmittable()
  @IsNonBlankString()
  @MaxLength(40)
  phone?: string;

  @IsOmittable()
  @IsMoneyAmount()
  clientAccountLimit?: string | number;
}


/** users.user.create.v1 */
export class CreateUserRequest extends ActorScoped {
  @IsDefined()
  @ValidateNested()
  @Type(() => NewUser)
  user: NewUser;

  /** The caller's Idempotency-Key: the same user again under it answers the user the first post made. */
  @IsOptional()
  @Matches(IDEMPOTENCY_KEY_PATTERN)
  idempotencyKey?: string;
}

/** users.user.get.v1, users.user.delete.v1 */
export class UserIdRequest extends ActorScoped {
  @IsInt()
  @IsPositive()
  userId: number;
}

/** users.user-token.issue.v2: `mintedBy`, the backend token asking (its credentialId), which the token records. */
export class IssueUserTokenRequest extends UserIdRequest {
  @IsOptional()
  @IsInt()
  @IsPositive()
  mintedBy: number | null;
}

/** users.user.update.v1 */
export class UpdateUserRequest extends UserIdRequest {
  @IsNotEmptyObject({ nullable: false }, { message: 'at least one field must be given' })
  @ValidateNested()
  @Type(() => UserChanges)
  changes: UserChanges;
}

/** The User resource of the backend API. */
export interface UserView {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  /** A decimal string, as the specification shows it in responses. */
  clientAccountLimit: string;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

export interface UserTokenView {
  token: string;
  expiresAt: string;
}
