export class HealthCheckRequest {}

/** A circuit breaker's state: closed (calls go), open (calls stop), half-open (one probe goes). */
export type CircuitState = 'closed' | 'open' | 'half-open';

/** Each remote vendor's circuit breakers, by vendor code and operation. */
export type VendorCircuits = Record<string, Record<string, CircuitState>>;

export interface HealthCheckReply {
  service: string;
  /** Distinguishes replicas of one service (host name and process id). */
  instance: string;
  database: 'up' | 'down';
  /** A service that calls remote vendors: their circuit breakers as this replica sees them (never a reason to be unready). */
  vendors?: VendorCircuits;
}
