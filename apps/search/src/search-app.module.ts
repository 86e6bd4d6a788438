import { DynamicModule, Module } from '@nestjs/common';
import { SUBJECTS } from '@hotel/contracts';
import { fxRatesFromOwner, supplierProviders } from '@hotel/inventory';
import { ServicePlatformModule } from '@hotel/platform';
import { remoteSuppliers } from '@hotel/hotelbeds';
import { CreateSearchSessions1763920000000 } from './migrations/1763920000000-create-search-sessions';
import { PricedSessions1764700000000 } from './migrations/1764700000000-priced-sessions';
import { VendorAnswers1765300000000 } from './migrations/1765300000000-vendor-answers';
import { HotelCatalog1765400000000 } from './migrations/1765400000000-hotel-catalog';
import { CatalogController } from './catalog/catalog.controller';
import { ContentImportService } from './catalog/content-import.service';
import { HotelCatalog } from './catalog/hotel-catalog';
import { ScheduledContentImport } from './catalog/scheduled-content-import';
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

export const SEARCH_ENTITIES = [SessionEntity, HotelViewEntity];
export const SEARCH_MIGRATIONS = [CreateSearchSessions1763920000000, PricedSessions1764700000000, VendorAnswers1765300000000, HotelCatalog1765400000000];

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
          entities: SEARCH_ENTITIES,
          migrations: SEARCH_MIGRATIONS,
        }),
      ],
      controllers: [PlacesController, SessionsController, V2RatesController, CatalogController],
      providers: [
        HotelCatalog,
        // hotelbeds is asked by its own hotel codes, which the content import matched.
        ...supplierProviders({ remote: { useFactory: (catalog: HotelCatalog) => remoteSuppliers(env, { hotelCodes: catalog }), inject: [HotelCatalog] } }),
        ContentImportService,
        ScheduledContentImport,
        ...fxRatesFromOwner(),
        OfferFinder, SessionRepository, VendorAnswersRepository, SessionsService, V2RatesService,
      ],
    };
  }
}
