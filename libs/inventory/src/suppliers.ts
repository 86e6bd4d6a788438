import { Inject, Injectable, InjectionToken, OnModuleDestroy, Optional, Provider, Type } from '@nestjs/common';
import { CircuitState, VendorCircuits } from '@hotel/contracts';
import { APP_METRICS, AppMetrics, HealthDetails } from '@hotel/platform';
import { REMOTE_SUPPLIERS, SUPPLIER_PORTS, SupplierPort } from './supplier-port';

/**
 * The suppliers the platform trades with, by vendor code, as registered with Nest
 * (SUPPLIER_PORTS): at least one, checked at startup.
 */
@Injectable()
export class Suppliers implements OnModuleDestroy {
  private readonly byCode = new Map<string, SupplierPort>();
  /** Every vendor's code, in the order registered. */
  readonly codes: readonly string[];

  constructor(@Inject(SUPPLIER_PORTS) ports: readonly SupplierPort[]) {
    for (const port of ports) {
      if (this.byCode.has(port.code)) throw new Error(`two suppliers are registered for vendor ${port.code}`);
      this.byCode.set(port.code, port);
    }
    if (this.byCode.size === 0) {
      throw new Error(
        'no vendor is configured: vendors are reached over HTTP, so set VENDOR_SIMULATOR_URL to the vendor simulator (npm start runs one; SIMULATED_VENDORS says which of its vendors) or HOTELBEDS_API_KEY',
      );
    }
    this.codes = [...this.byCode.keys()];
  }

  onModuleDestroy() {
    for (const port of this.byCode.values()) port.close?.();
  }

  /** Each remote vendor's circuit breakers, by vendor code and operation. */
  circuits(): VendorCircuits {
    const circuits: VendorCircuits = {};
    for (const port of this.byCode.values()) {
      const states = port.circuits?.();
      if (states) circuits[port.code] = states;
    }
    return circuits;
  }

  /** The supplier behind a vendor code, if any (a code read from a client's input may name none). */
  find(code: string): SupplierPort | undefined {
    return this.byCode.get(code);
  }

  /** The supplier of one of the platform's vendors (a code of `codes`). */
  of(code: string): SupplierPort {
    const port = this.byCode.get(code);
    if (!port) throw new Error(`no supplier is registered for vendor ${code}`);
    return port;
  }
}

export interface SupplierProvidersOptions {
  /** Suppliers as Nest classes (a test registers its own), each replacing the remote supplier of its code. */
  suppliers?: Type<SupplierPort>[];
  /**
   * Remote suppliers built from the app's configuration (`@hotel/hotelbeds`'s remoteSuppliers:
   * the vendor simulator's vendors with VENDOR_SIMULATOR_URL); or how to build them from the
   * app's providers (the search service's catalog).
   */
  remote?: SupplierPort[] | { useFactory: (...dependencies: never[]) => SupplierPort[]; inject: InjectionToken[] };
}

/**
 * The Nest providers behind `Suppliers`: the given suppliers, and the remote ones whose
 * codes none of them has taken. No vendor runs inside the platform: `Suppliers` refuses
 * to start with none. The search and rates services register these in their modules.
 */
export function supplierProviders(options: SupplierProvidersOptions = {}): Provider[] {
  const suppliers = options.suppliers ?? [];
  return [
    ...suppliers,
    Array.isArray(options.remote) || options.remote === undefined
      ? { provide: REMOTE_SUPPLIERS, useValue: options.remote ?? [] }
      : { provide: REMOTE_SUPPLIERS, useFactory: options.remote.useFactory, inject: options.remote.inject },
    {
      provide: SUPPLIER_PORTS,
      useFactory: (remote: SupplierPort[], ...given: SupplierPort[]): SupplierPort[] => [
        ...given,
        ...remote.filter((port) => !given.some((taken) => taken.code === port.code)),
      ],
      inject: [REMOTE_SUPPLIERS, ...suppliers],
    },
    Suppliers,
    VendorCircuitsReport,
  ];
}

const CIRCUIT_VALUES: Record<CircuitState, number> = { closed: 0, 'half-open': 0.5, open: 1 };

/**
 * Shows the remote vendors' circuit breakers in the service's health reply and as the metric
 * `hotel_vendor_circuit_open` (1 open, 0.5 half-open, 0 closed), by vendor and operation.
 */
@Injectable()
export class VendorCircuitsReport {
  constructor(suppliers: Suppliers, @Optional() details?: HealthDetails, @Optional() @Inject(APP_METRICS) metrics?: AppMetrics) {
    if (!suppliers.codes.some((code) => suppliers.of(code).circuits)) return;
    if (details) details.vendors = () => suppliers.circuits();
    metrics?.gauge(
      'hotel_vendor_circuit_open',
      "A remote vendor's circuit breaker by operation: 1 open (calls stop), 0.5 half-open (a probe goes), 0 closed",
      (gauge) => {
        for (const [vendor, states] of Object.entries(suppliers.circuits())) {
          for (const [operation, state] of Object.entries(states)) gauge.set({ vendor, operation }, CIRCUIT_VALUES[state]);
        }
      },
      ['vendor', 'operation'],
    );
  }
}
