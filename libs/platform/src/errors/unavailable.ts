import { DomainError } from './domain-error';

/** SQLSTATE classes and codes that mean "the database cannot serve now", not "this request is wrong". */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '53400', '40001', '40P01', '55P03']);
/** Socket-level failures of a connection to a dependency. */
const UNAVAILABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);
/** What node-postgres says when a connection ends or cannot be had (it sets no code). */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Cannot use a pool after calling end on the pool',
  'Client was closed and is not queryable',
  'terminating connection',
  'the database system is',
  'Query read timeout',
];

/**
 * True when an error means a dependency (the database) is down or overloaded:
 * a retry later may succeed, so callers get 503 with Retry-After, never 500.
 * TypeORM wraps the driver's error (`driverError`); both are looked at.
 */
export function isUnavailableError(error: unknown): boolean {
  for (let candidate = error, depth = 0; candidate && typeof candidate === 'object' && depth < 4; depth++) {
    const { code, message, driverError, cause } = candidate as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
    if (typeof code === 'string' && (code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_ERRNOS.has(code))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((text) => message.includes(text))) return true;
    candidate = driverError ?? cause;
  }
  return false;
}

/** The DomainError a caller gets for an unavailable dependency. */
export function unavailable(what: string): DomainError {
  return new DomainError('SERVICE_UNAVAILABLE', `${what} is unavailable; retry shortly`, undefined, 1);
}
