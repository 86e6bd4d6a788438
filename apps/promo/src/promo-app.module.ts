import { DynamicModule, Module } from '@nestjs/common';
import { SUBJECTS } from '@hotel/contracts';
import { ServiceEnv, ServicePlatformModule } from '@hotel/platform';

@Module({})
export class PromoAppModule {
  static register(env: ServiceEnv): DynamicModule {
    const platform = ServicePlatformModule.forService({
      name: 'promo',
      env,
      healthSubject: SUBJECTS.PROMO_HEALTH_CHECK,
      entities: [],
      migrations: [],
    });
    return { module: PromoAppModule, imports: [platform] };
  }
}
