import { DynamicModule, Module } from '@nestjs/common';
import { SUBJECTS } from '@hotel/contracts';
import { ServiceEnv, ServicePlatformModule } from '@hotel/platform';
import { PromoCodesController } from './codes/promo-codes.controller';
import { PromoCodesRepository } from './codes/promo-codes.repository';
import { PromoCodesService } from './codes/promo-codes.service';
import { PromoCodeEntity, PromoRedemptionEntity } from './codes/promo-code.entity';
import { CreatePromoCodes1763940000000 } from './migrations/1763940000000-create-promo-codes';
import { AmountsInAnyCurrency1764700000000 } from './migrations/1764700000000-amounts-in-any-currency';
import { UsesPerWorld1764800000000 } from './migrations/1764800000000-uses-per-world';

/** The schema the promo service owns: its entities and migrations, in order (the app and its service-tier tests). */
export const PROMO_ENTITIES = [PromoCodeEntity, PromoRedemptionEntity];
export const PROMO_MIGRATIONS = [CreatePromoCodes1763940000000, AmountsInAnyCurrency1764700000000, UsesPerWorld1764800000000];

@Module({})
export class PromoAppModule {
  static register(env: ServiceEnv): DynamicModule {
    return {
      module: PromoAppModule,
      imports: [
        ServicePlatformModule.forService({
          name: 'promo',
          env,
          healthSubject: SUBJECTS.PROMO_HEALTH_CHECK,
          entities: PROMO_ENTITIES,
          migrations: PROMO_MIGRATIONS,
        }),
      ],
      controllers: [PromoCodesController],
      providers: [PromoCodesRepository, PromoCodesService],
    };
  }
}
