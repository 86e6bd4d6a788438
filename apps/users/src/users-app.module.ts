import { DynamicModule, Module } from '@nestjs/common';
import { SUBJECTS } from '@hotel/contracts';
import { ServicePlatformModule } from '@hotel/platform';
import { ClientsController } from './clients/clients.controller';
import { ClientsRepository } from './clients/clients.repository';
import { ClientsService } from './clients/clients.service';
import { CreateClientsAndUsers1763900000000 } from './migrations/1763900000000-create-clients-and-users';
import { AddClientRateLimits1763910000000 } from './migrations/1763910000000-add-client-rate-limits';
import { RevocableUserTokens1764100000000 } from './migrations/1764100000000-revocable-user-tokens';
import { DeletableClients1764300000000 } from './migrations/1764300000000-deletable-clients';
import { FinanceTokens1764600000000 } from './migrations/1764600000000-finance-tokens';
import { AmountsInAnyCurrency1764700000000 } from './migrations/1764700000000-amounts-in-any-currency';
import { UserTokensRecordTheirIssuer1765000000000 } from './migrations/1765000000000-user-tokens-record-their-issuer';
import { FinanceTokenEntity } from './finance/finance-token.entity';
import { FinanceTokensController } from './finance/finance-tokens.controller';
import { FinanceTokensRepository } from './finance/finance-tokens.repository';
import { FinanceTokensService } from './finance/finance-tokens.service';
import { CredentialEvents } from './clients/credential-events';
import { ClientEntity, CredentialEntity } from './clients/client.entity';
import { UserEntity, UserTokenEntity } from './users/user.entity';
import { UsersEnv } from './users.env';
import { UsersController } from './users/users.controller';
import { UsersRepository } from './users/users.repository';
import { UsersService } from './users/users.service';
import { UserIdempotencyKeys1765960000000 } from './migrations/1765960000000-user-idempotency-keys';

/** The schema the users service owns: its entities and migrations, in order (the app and its service-tier tests). */
export const USERS_ENTITIES = [ClientEntity, CredentialEntity, UserEntity, UserTokenEntity, FinanceTokenEntity];
export const USERS_MIGRATIONS = [
  CreateClientsAndUsers1763900000000,
  AddClientRateLimits1763910000000,
  RevocableUserTokens1764100000000,
  DeletableClients1764300000000,
  FinanceTokens1764600000000,
  AmountsInAnyCurrency1764700000000,
  UserTokensRecordTheirIssuer1765000000000,
  UserIdempotencyKeys1765960000000,
];

@Module({})
export class UsersAppModule {
  static register(env: UsersEnv): DynamicModule {
    return {
      module: UsersAppModule,
      imports: [
        ServicePlatformModule.forService({
          name: 'users',
          env,
          healthSubject: SUBJECTS.USERS_HEALTH_CHECK,
          entities: USERS_ENTITIES,
          migrations: USERS_MIGRATIONS,
        }),
      ],
      controllers: [ClientsController, UsersController, FinanceTokensController],
      providers: [ClientsRepository, ClientsService, UsersRepository, UsersService, CredentialEvents, FinanceTokensRepository, FinanceTokensService],
    };
  }
}
