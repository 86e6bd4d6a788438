import { DynamicModule, Module } from '@nestjs/common';
import { SUBJECTS } from '@hotel/contracts';
import { ServiceEnv, ServicePlatformModule } from '@hotel/platform';

@Module({})
export class AccountingAppModule {
  static register(env: ServiceEnv): DynamicModule {
    const platform = ServicePlatformModule.forService({
      name: 'accounting',
      env,
      healthSubject: SUBJECTS.ACCOUNTING_HEALTH_CHECK,
      entities: [],
      migrations: [],
    });
    return { module: AccountingAppModule, imports: [platform] };
  }
}
