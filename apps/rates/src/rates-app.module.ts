import { DynamicModule, Module, Type } from '@nestjs/common';
import { SUBJECTS } from '@hotel/contracts';
import { FX_RATE_SOURCE, FxRateSource, FxRates, SupplierPort, supplierProviders } from '@hotel/inventory';
import { remoteSuppliers } from '@hotel/hotelbeds';
import { VendorCancellationCharge1765200000000 } from './migrations/1765200000000-vendor-cancellation-charge';
import { ServicePlatformModule } from '@hotel/platform';
import { FxRateEntity } from './fx/fx-rate.entity';
import { FxRateSetEntity } from './fx/fx-rate-set.entity';
import { FxRatesController } from './fx/fx-rates.controller';
import { FxRatesRefresh } from './fx/fx-rates-refresh';
import { FxRatesRepository } from './fx/fx-rates.repository';
import { FxRatesService } from './fx/fx-rates.service';
import { InventoryController } from './inventory/inventory.controller';
import { CreateAllotments1763920000000 } from './migrations/1763920000000-create-allotments';
import { CreatePrebooks1763950000000 } from './migrations/1763950000000-create-prebooks';
import { CreateSupplierBookings1763960000000 } from './migrations/1763960000000-create-supplier-bookings';
import { SandboxSupplierBookings1764200000000 } from './migrations/1764200000000-sandbox-supplier-bookings';
import { AmountsInAnyCurrency1764700000000 } from './migrations/1764700000000-amounts-in-any-currency';
import { CreateFxRates1764710000000 } from './migrations/1764710000000-create-fx-rates';
import { ReserveCallRecord1764900000000 } from './migrations/1764900000000-reserve-call-record';
import { SupplierBookingEntity } from './supplier/supplier-booking.entity';
import { SupplierBookingsRepository } from './supplier/supplier-bookings.repository';
import { SupplierController } from './supplier/supplier.controller';
import { SupplierService } from './supplier/supplier.service';
import { PrebookEntity } from './prebooks/prebook.entity';
import { PrebooksController } from './prebooks/prebooks.controller';
import { PrebooksRepository } from './prebooks/prebooks.repository';
import { PrebooksService } from './prebooks/prebooks.service';
import { CatalogHotels } from './prebooks/catalog-hotels';
import { RatesEnv } from './rates.env';
import { JobLeaseEntity } from './jobs/job-lease.entity';
import { JobLeasesRepository } from './jobs/job-leases.repository';
import { VendorReconciliations1765300000000 } from './migrations/1765300000000-vendor-reconciliations';
import { FxRefreshOnJobLeases1765600000000 } from './migrations/1765600000000-fx-refresh-on-job-leases';
import { DailyVendorReconciliation } from './reconciliation/daily-vendor-reconciliation';
import { VendorReconciliationController } from './reconciliation/vendor-reconciliation.controller';
import { VendorReconciliationEntity } from './reconciliation/vendor-reconciliation.entity';
import { VendorReconciliationService } from './reconciliation/vendor-reconciliation.service';
import { VendorReconciliationsRepository } from './reconciliation/vendor-reconciliations.repository';

/**
 * The entities of the rates schema, one per table but rates.allotments: the platform's own
 * allotment of the vendors it once ran in process, read and written by no release since the
 * vendors keep their own. A later release drops it (CreateAllotments made it), once no
 * replica of the release before (which reads it) runs.
 */
export const RATES_ENTITIES = [PrebookEntity, SupplierBookingEntity, FxRateSetEntity, FxRateEntity, VendorReconciliationEntity, JobLeaseEntity];

/** The rates schema's migrations, in order. */
export const RATES_MIGRATIONS = [CreateAllotments1763920000000, CreatePrebooks1763950000000, CreateSupplierBookings1763960000000, SandboxSupplierBookings1764200000000, AmountsInAnyCurrency1764700000000, CreateFxRates1764710000000, ReserveCallRecord1764900000000, VendorCancellationCharge1765200000000, VendorReconciliations1765300000000, FxRefreshOnJobLeases1765600000000];

@Module({})
export class RatesAppModule {
  /** `suppliers`: suppliers of one's own in place of the simulated vendors of the same codes (a test's). */
  static register(env: RatesEnv, options: { suppliers?: Type<SupplierPort>[] } = {}): DynamicModule {
    return {
      module: RatesAppModule,
      imports: [
        ServicePlatformModule.forService({
          name: 'rates',
          env,
          healthSubject: SUBJECTS.RATES_HEALTH_CHECK,
          entities: RATES_ENTITIES,
          migrations: RATES_MIGRATIONS,
        }),
      ],
      controllers: [InventoryController, PrebooksController, SupplierController, FxRatesController, VendorReconciliationController],
      providers: [...supplierProviders({ suppliers: options.suppliers, remote: remoteSuppliers(env) }), PrebooksRepository, PrebooksService, CatalogHotels, SupplierBookingsRepository, SupplierService, FxRatesRepository, FxRatesService, FxRatesRefresh, JobLeasesRepository, VendorReconciliationsRepository, VendorReconciliationService, DailyVendorReconciliation,
        // Prebook converts with the sets the FxRatesService keeps in memory: asked every time, nothing kept twice.
        { provide: FX_RATE_SOURCE, useFactory: (rates: FxRatesService): FxRateSource => ({ load: () => rates.sets(), ttlMs: 0 }), inject: [FxRatesService] },
        FxRates,
      ],
    };
  }
}
