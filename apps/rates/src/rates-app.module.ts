import { DynamicModule, Module } from '@nestjs/common';
import { SUBJECTS } from '@hotel/contracts';
import { ServiceEnv, ServicePlatformModule } from '@hotel/platform';

@Module({})
export class RatesAppModule {
  static register(env: ServiceEnv): DynamicModule {
    const platform = ServicePlatformModule.forService({
      name: 'rates',
      env,
      healthSubject: SUBJECTS.RATES_HEALTH_CHECK,
      entities: [],
      migrations: [],
    });
    return { module: RatesAppModule, imports: [platform] };
  }
}
