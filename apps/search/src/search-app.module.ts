import { DynamicModule, Module } from '@nestjs/common';
import { SUBJECTS } from '@hotel/contracts';
import { fxRatesFromOwner, supplierProviders } from '@hotel/inventory';
import { ServicePlatformModule } from '@hotel/platform';
import { remoteSuppliers } from '@hotel/hotelbeds';
import { CreateSearchSessions1763920000000 } from './migrations/1763920000000-create-search-sessions';
import { PricedSessions1764700000000 } from './migrations/1764700000000-priced-sessions';
import { VendorAnswers1765300000000 } from './migrations/1765300000000-vendor-answers';
import { VendorAnswersRepository } from './sessions/vendor-answers.repository';
import { OfferFinder } from './offers/offer-finder';
import { PlacesController } from './places/places.controller';
import { SearchEnv } from './search.env';
import { SessionRepository } from './sessions/session.repository';
import { SessionsController } from './sessions/sessions.controller';
import { SessionsService } from './sessions/sessions.service';
import { V2RatesController } from './v2/v2-rates.controller';
import { V2RatesService } from './v2/v2-rates.service';
import { HotelViewEntity, SessionEntity } from './sessions/session.entity';

@Module({})
export class SearchAppModule {
  static register(env: SearchEnv): DynamicModule {
    return {
      module: SearchAppModule,
      imports: [
        ServicePlatformModule.forService({
          name: 'search',
          env,
          healthSubject: SUBJECTS.SEARCH_HEALTH_CHECK,
          entities: [SessionEntity, HotelViewEntity],
          migrations: [CreateSearchSessions1763920000000, PricedSessions1764700000000, VendorAnswers1765300000000],
        }),
      ],
      controllers: [PlacesController, SessionsController, V2RatesController],
      providers: [...supplierProviders({ remote: remoteSuppliers(env) }), ...fxRatesFromOwner(), OfferFinder, SessionRepository, VendorAnswersRepository, SessionsService, V2RatesService],
    };
  }
}
