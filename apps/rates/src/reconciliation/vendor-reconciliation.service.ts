import { Injectable } from '@nestjs/common';
import {
  MAX_LISTED_VENDOR_DIFFERENCES,
  MAX_LISTED_VENDOR_REPORTS,
  RunVendorReconciliationRequest,
  VendorDifference,
  VendorReconciliationReport,
  VendorReconciliationRunReply,
  VendorReconciliationSection,
  VendorReconciliationTrigger,
  parseDay,
} from '@hotel/contracts';
import { SupplierPort, Suppliers, VendorBookingSummary } from '@hotel/inventory';
import { DomainError } from '@hotel/platform';
import { unmatchedOf, vendorDifferences } from './vendor-differences';
import { VendorReconciliationEntity } from './vendor-reconciliation.entity';
import { VendorReconciliationsRepository } from './vendor-reconciliations.repository';

const DAY_MS = 86_400_000;

/** A remote vendor that can list the bookings it made. */
type ListingVendor = SupplierPort & Required<Pick<SupplierPort, 'bookingsMade'>>;

/** The day `days` from a YYYY-MM-DD day. */
export function dayFrom(day: string, days: number): string {
  return new Date(parseDay(day)!.getTime() + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Reconciliation with the remote vendors: for one vendor and a period, the platform's
 * supplier bookings (sandbox ones never reach a vendor) against the vendor's own booking
 * list, each run's result kept for the finance team. The built-in simulated vendors keep
 * no bookings and are not reconciled.
 */
@Injectable()
export class VendorReconciliationService {
  constructor(
    private readonly suppliers: Suppliers,
    private readonly repository: VendorReconciliationsRepository,
  ) {}

  /** The remote vendors' codes, in the suppliers' order. */
  remoteVendors(): string[] {
    return this.listingVendors().map((vendor) => vendor.code);
  }

  /** Reconciles the vendor asked (every remote vendor when none is) over the period now. */
  async run(request: RunVendorReconciliationRequest, trigger: VendorReconciliationTrigger): Promise<VendorReconciliationRunReply> {
    const configured = this.remoteVendors();
    if (configured.length === 0) {
      throw DomainError.validation([{ field: 'vendor', message: 'no remote vendor is configured (HOTELBEDS_API_KEY, VENDOR_SIMULATOR_URL): there is nothing to reconcile' }]);
    }
    if (request.vendor !== undefined && !configured.includes(request.vendor)) {
      throw DomainError.validation([{ field: 'vendor', message: `${request.vendor} is not a remote vendor; the remote vendors configured are ${configured.join(', ')}` }]);
    }
    return this.reconcile(request.vendor === undefined ? configured : [request.vendor], request.from, request.to, trigger);
  }

  /**
   * Reconciles each of these remote vendors over the period, side by side; a vendor that
   * cannot be asked is a failure of its own and keeps no result.
   */
  async reconcile(vendors: readonly string[], from: string, to: string, trigger: VendorReconciliationTrigger): Promise<VendorReconciliationRunReply> {
    const outcomes = await Promise.all(
      this.listingVendors()
        .filter((vendor) => vendors.includes(vendor.code))
        .map((vendor) =>
          this.reconcileOne(vendor, from, to, trigger).then(
            (report) => ({ report }),
            (error: unknown) => ({ failure: { vendor: vendor.code, message: error instanceof Error ? error.message : String(error) } }),
          ),
        ),
    );
    return {
      reports: listed(outcomes.flatMap((outcome) => ('report' in outcome ? [outcome.report] : []))),
      failures: outcomes.flatMap((outcome) => ('failure' in outcome ? [outcome.failure] : [])),
    };
  }

  /** Of the remote vendors, those without a run over exactly this day yet. */
  async unreconciledOn(day: string): Promise<string[]> {
    const vendors = this.remoteVendors();
    if (vendors.length === 0) return [];
    const done = new Set(await this.repository.reconciledOn(vendors, day));
    return vendors.filter((vendor) => !done.has(vendor));
  }

  /** The newest run of each vendor and period overlapping the period, for the finance reconciliation. */
  async list(from: string, to: string): Promise<VendorReconciliationSection> {
    const { runs, total } = await this.repository.latestOverlapping(from, to, MAX_LISTED_VENDOR_REPORTS);
    return { reports: listed(runs.map(reportOf)), reportCount: total };
  }

  private async reconcileOne(vendor: ListingVendor, from: string, to: string, trigger: VendorReconciliationTrigger): Promise<VendorReconciliationReport> {
    const [platform, made] = await Promise.all([this.repository.platformBookings(vendor.code, from, to), vendor.bookingsMade(from, to)]);
    const listedInPeriod = new Set(made.map((booking) => booking.reference));
    // The days around are asked only for records the period's list lacks (most days, none).
    const around: VendorBookingSummary[] = platform.some((record) => !listedInPeriod.has(record.reference!))
      ? (await Promise.all([vendor.bookingsMade(dayFrom(from, -1), dayFrom(from, -1)), vendor.bookingsMade(dayFrom(to, 1), dayFrom(to, 1))])).flat()
      : [];
    const { references, bookingIds } = unmatchedOf(platform, made);
    const known = await this.repository.recordsOf(vendor.code, references, bookingIds);
    const differences = vendorDifferences({ platform, made, around, known });
    const count = (kind: VendorDifference['kind']) => differences.filter((difference) => difference.kind === kind).length;
    const run = {
      vendor: vendor.code,
      periodStart: from,
      periodEnd: to,
      trigger,
      platformBookings: platform.length,
      vendorBookings: new Set(made.map((booking) => booking.reference)).size,
      missingAtVendor: count('missing_at_vendor'),
      unknownToPlatform: count('unknown_to_platform'),
      statusMismatch: count('status_mismatch'),
      differences: differences.slice(0, MAX_LISTED_VENDOR_DIFFERENCES),
    };
    return reportOf({ ...run, ...(await this.repository.insert(run)) });
  }

  private listingVendors(): ListingVendor[] {
    return this.suppliers.codes.map((code) => this.suppliers.of(code)).filter((vendor): vendor is ListingVendor => vendor.bookingsMade !== undefined);
  }
}

/** A kept run as the contract gives it: the period as from/to, its time in ISO 8601. */
function reportOf({ periodStart, periodEnd, ranAt, ...run }: VendorReconciliationEntity): VendorReconciliationReport {
  return { ...run, from: periodStart, to: periodEnd, ranAt: ranAt.toISOString() };
}

/** The reports with at most MAX_LISTED_VENDOR_DIFFERENCES differences among them (an answer stays well under a NATS message's 1 MB). */
function listed(reports: VendorReconciliationReport[]): VendorReconciliationReport[] {
  let room = MAX_LISTED_VENDOR_DIFFERENCES;
  return reports.map((report) => {
    const differences = report.differences.slice(0, room);
    room -= differences.length;
    return { ...report, differences };
  });
}
