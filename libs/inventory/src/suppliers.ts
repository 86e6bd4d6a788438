import { Inject, Injectable, Provider, Type } from '@nestjs/common';
import { SimulatedSupplier, SimulatedSupplierOptions } from './simulated-supplier';
import { SUPPLIER_PORTS, SupplierPort } from './supplier-port';
import { VENDORS, VENDOR_CODES, VendorCode } from './vendors';

/**
 * Real suppliers: `@Injectable()` classes implementing SupplierPort (an HTTP
 * client, say), with whatever they need injected. One listed here replaces the
 * simulated vendor with the same code in every service that registers
 * supplierProviders(): it is searched, priced, booked and cancelled through.
 */
const REAL_SUPPLIERS: Type<SupplierPort>[] = [];

/**
 * The suppliers the platform trades with, by vendor code, as registered with Nest
 * (SUPPLIER_PORTS). Every vendor the platform searches has one, checked at startup.
 */
@Injectable()
export class Suppliers {
  private readonly byCode = new Map<string, SupplierPort>();

  constructor(@Inject(SUPPLIER_PORTS) ports: readonly SupplierPort[]) {
    for (const port of ports) {
      if (this.byCode.has(port.code)) throw new Error(`two suppliers are registered for vendor ${port.code}`);
      this.byCode.set(port.code, port);
    }
    const missing = VENDOR_CODES.filter((code) => !this.byCode.has(code));
    if (missing.length > 0) throw new Error(`no supplier is registered for vendor ${missing.join(', ')}`);
  }

  /** The supplier behind a vendor code, if any (a code read from a client's input may name none). */
  find(code: string): SupplierPort | undefined {
    return this.byCode.get(code);
  }

  /** The supplier of one of the platform's vendors (every one has a supplier: checked at startup). */
  of(code: VendorCode): SupplierPort {
    return this.byCode.get(code)!;
  }
}

export interface SupplierProvidersOptions {
  /** The real suppliers (default: REAL_SUPPLIERS); a test may register its own. */
  suppliers?: Type<SupplierPort>[];
  /** How the simulated vendors behave (the rates service sets SUPPLIER_PENDING_S). */
  simulated?: SimulatedSupplierOptions;
}

/**
 * The Nest providers behind `Suppliers`: the real suppliers first, then the simulated
 * vendors whose codes no real supplier has taken. The search and rates services
 * register these in their modules.
 */
export function supplierProviders(options: SupplierProvidersOptions = {}): Provider[] {
  const suppliers = options.suppliers ?? REAL_SUPPLIERS;
  return [
    ...suppliers,
    {
      provide: SUPPLIER_PORTS,
      useFactory: (...real: SupplierPort[]): SupplierPort[] => [
        ...real,
        ...VENDOR_CODES.filter((code) => !real.some((port) => port.code === code)).map((code) => new SimulatedSupplier(VENDORS[code], options.simulated)),
      ],
      inject: suppliers,
    },
    Suppliers,
  ];
}
