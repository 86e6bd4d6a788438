import { DynamicModule, Module } from '@nestjs/common';
import { SUBJECTS } from '@hotel/contracts';
import { ServiceEnv, ServicePlatformModule } from '@hotel/platform';

@Module({})
export class BookingAppModule {
  static register(env: ServiceEnv): DynamicModule {
    const platform = ServicePlatformModule.forService({
      name: 'booking',
      env,
      healthSubject: SUBJECTS.BOOKING_HEALTH_CHECK,
      entities: [],
      migrations: [],
    });
    return { module: BookingAppModule, imports: [platform] };
  }
}
