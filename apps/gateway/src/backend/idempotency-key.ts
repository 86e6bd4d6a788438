import { IDEMPOTENCY_KEY_PATTERN } from '@hotel/contracts';
import { DomainError } from '@hotel/platform';

/** The `Idempotency-Key` header a backend post was sent with, checked; undefined without one. */
export function idempotencyKeyOf(header: string | undefined): string | undefined {
  if (header !== undefined && !IDEMPOTENCY_KEY_PATTERN.test(header)) {
    throw DomainError.validation([{ field: 'Idempotency-Key', message: 'Idempotency-Key must be 1 to 128 printable characters' }]);
  }
  return header;
}
