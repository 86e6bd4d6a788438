import { IsOptional, Matches } from 'class-validator';
import { IsPeriodEndWithin, IsPeriodStart, MAX_PERIOD_DAYS } from '../accounting/finance';

/** The longest period one reconciliation run covers, both ends counted: each vendor's whole booking list of it is read at once. */
export const MAX_VENDOR_RECONCILIATION_DAYS = 31;

/** At most this many differences travel in one answer (a run's or a list's); the counts count them all and the table keeps them. */
export const MAX_LISTED_VENDOR_DIFFERENCES = 1000;

/** At most this many reports travel in one list answer (its `reportCount` counts them all). */
export const MAX_LISTED_VENDOR_REPORTS = 100;

/** A vendor's code as the platform names it (`hotelbeds`, `atlas`). */
export const VENDOR_CODE_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;

export const VENDOR_DIFFERENCE_KINDS = ['missing_at_vendor', 'unknown_to_platform', 'status_mismatch'] as const;
/**
 * What reconciliation finds between the platform's record of its supplier bookings and a
 * vendor's own list: a booking the vendor does not have (missing_at_vendor), one it has that
 * the platform has no record of (unknown_to_platform), and one both have that stands
 * differently (status_mismatch).
 */
export type VendorDifferenceKind = (typeof VENDOR_DIFFERENCE_KINDS)[number];

/** Where the platform's record of a supplier booking stands; `requested`: the vendor was asked and its answer never recorded. */
export type PlatformSupplierStatus = 'requested' | 'pending' | 'confirmed' | 'cancelled';

/** Where a booking stands at the vendor, as its list says. */
export type VendorBookingStatus = 'confirmed' | 'pending' | 'cancelled';

/** Why a reconciliation ran: the daily job, or an operator's `reconcile-vendors`. */
export type VendorReconciliationTrigger = 'daily' | 'command';

/** One difference between the platform and a vendor, about one booking. */
export interface VendorDifference {
  kind: VendorDifferenceKind;
  /** The platform booking: its record's, or the one the vendor's client reference `HB<id>` names; null when neither names one. */
  bookingId: number | null;
  /** The vendor's reference, as the platform recorded it (missing_at_vendor) or as the vendor lists it; null for a record without one (requested). */
  reference: string | null;
  /** The client reference the vendor lists; null for missing_at_vendor. */
  clientReference: string | null;
  /** Where the platform's record stands; null when it has none (unknown_to_platform). */
  platformStatus: PlatformSupplierStatus | null;
  /** Where the vendor's booking stands; null when it has none (missing_at_vendor). */
  vendorStatus: VendorBookingStatus | null;
  /** YYYY-MM-DD: the vendor's creation day, or (missing_at_vendor) the day the platform recorded the booking. */
  createdOn: string;
  /** What the vendor says the booking costs (once cancelled: what cancelling cost), a decimal string in `currency`; null when it does not say. */
  net: string | null;
  currency: string | null;
}

/** One run of reconciliation for one vendor and period (a row of rates.vendor_reconciliations). */
export interface VendorReconciliationReport {
  id: number;
  vendor: string;
  /** The period, UTC days YYYY-MM-DD, both included. */
  from: string;
  to: string;
  /** When it ran (ISO 8601). */
  ranAt: string;
  trigger: VendorReconciliationTrigger;
  /** The platform's bookings with the vendor recorded in the period (sandbox ones left out): pending, confirmed or cancelled. */
  platformBookings: number;
  /** The bookings the vendor lists as made in the period, whatever their status. */
  vendorBookings: number;
  missingAtVendor: number;
  unknownToPlatform: number;
  statusMismatch: number;
  /** The differences, by kind then booking; an answer lists at most 1000 in all (MAX_LISTED_VENDOR_DIFFERENCES), the counts above count every one. */
  differences: VendorDifference[];
}

/** A vendor reconciliation could not ask: its message (the vendor did not answer, refused the list); nothing is kept for it. */
export interface VendorReconciliationFailure {
  vendor: string;
  message: string;
}

/** `to`: a real day from `from` to MAX_VENDOR_RECONCILIATION_DAYS days later. */
const IsRunPeriodEnd = IsPeriodEndWithin(MAX_VENDOR_RECONCILIATION_DAYS);
/** `to`: a real day from `from` to MAX_PERIOD_DAYS days later (the finance reports' period). */
const IsListPeriodEnd = IsPeriodEndWithin(MAX_PERIOD_DAYS);

/** rates.vendor-reconciliation.run.v1 (admin command line): reconciles one remote vendor, or every one, over a period now. */
export class RunVendorReconciliationRequest {
  /** A remote vendor's code; every remote vendor when absent. */
  @IsOptional()
  @Matches(VENDOR_CODE_PATTERN, { message: 'vendor must be a vendor code such as hotelbeds or atlas' })
  vendor?: string;

  @IsPeriodStart()
  from: string;

  @IsRunPeriodEnd()
  to: string;
}

export interface VendorReconciliationRunReply {
  /** One per vendor reconciled, in the order the vendors are configured. */
  reports: VendorReconciliationReport[];
  failures: VendorReconciliationFailure[];
}

/** rates.vendor-reconciliation.list.v1 (accounting): the reports whose period overlaps `from`..`to`. */
export class ListVendorReconciliationsRequest {
  @IsPeriodStart()
  from: string;

  @IsListPeriodEnd()
  to: string;
}

/** The vendors' side of a finance reconciliation. */
export interface VendorReconciliationSection {
  /**
   * The newest run for each vendor and period that overlaps the period asked, the latest
   * periods first: at most 100 (MAX_LISTED_VENDOR_REPORTS), with at most 1000 differences
   * among them.
   */
  reports: VendorReconciliationReport[];
  /** How many such reports there are. */
  reportCount: number;
}
