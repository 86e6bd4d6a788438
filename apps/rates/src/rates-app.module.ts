import { DynamicModule, Module } from '@nestjs/common';
import { SUBJECTS } from '@hotel/contracts';
import { ServiceEnv, ServicePlatformModule } from '@hotel/platform';
import { AllotmentsRepository } from './inventory/allotments.repository';
import { InventoryController } from './inventory/inventory.controller';
import { CreateAllotments1763920000000 } from './migrations/1763920000000-create-allotments';

@Module({})
export class RatesAppModule {
  static register(env: ServiceEnv): DynamicModule {
    return {
      module: RatesAppModule,
      imports: [
        ServicePlatformModule.forService({
          name: 'rates',
          env,
          healthSubject: SUBJECTS.RATES_HEALTH_CHECK,
          entities: [],
          migrations: [CreateAllotments1763920000000],
        }),
      ],
      controllers: [InventoryController],
      providers: [AllotmentsRepository],
    };
  }
}
