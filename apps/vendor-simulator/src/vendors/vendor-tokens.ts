/** The vendors' credentials (CredentialsByVendor): their API keys, and the secrets that sign requests and rate keys. */
export const VENDOR_CREDENTIALS = Symbol('VENDOR_CREDENTIALS');

/** The FaultBoard of the running simulator. */
export const FAULT_BOARD = Symbol('FAULT_BOARD');

/** How the vendors behave: `{ pendingSeconds }` (SUPPLIER_PENDING_S). */
export const VENDOR_BEHAVIOUR = Symbol('VENDOR_BEHAVIOUR');

export interface VendorBehaviour {
  /** A booking in the sandbox scenario supplier_pending is confirmed this long after it was made. */
  pendingSeconds: number;
}
