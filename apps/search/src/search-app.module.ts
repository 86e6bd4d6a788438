import { DynamicModule, Module } from '@nestjs/common';
import { SUBJECTS } from '@hotel/contracts';
import { ServiceEnv, ServicePlatformModule } from '@hotel/platform';

@Module({})
export class SearchAppModule {
  static register(env: ServiceEnv): DynamicModule {
    const platform = ServicePlatformModule.forService({
      name: 'search',
      env,
      healthSubject: SUBJECTS.SEARCH_HEALTH_CHECK,
      entities: [],
      migrations: [],
    });
    return { module: SearchAppModule, imports: [platform] };
  }
}
