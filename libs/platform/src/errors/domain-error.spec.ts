import { ValidationError } from 'class-validator';
import { ERROR_CODES, isRpcErrorPayload } from '@hotel/contracts';
import { DomainError, HTTP_STATUS_BY_CODE, flattenValidationErrors } from './domain-error';

describe('DomainError', () => {
  it('survives the trip over the wire', () => {
    const original = new DomainError('SERVICE_UNAVAILABLE', 'down', [{ field: 'a', message: 'b' }], 3);
    const wire = JSON.parse(JSON.stringify(original.toWire()));
    expect(isRpcErrorPayload(wire)).toBe(true);
    const back = DomainError.fromWire(wire);
    expect(back).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'down', errors: [{ field: 'a', message: 'b' }], retryAfterSeconds: 3 });
  });

  it('does not take an unknown code for an error payload', () => {
    expect(isRpcErrorPayload({ code: 'WHATEVER', message: 'x' })).toBe(false);
    expect(isRpcErrorPayload('Internal server error')).toBe(false);
  });

  it('maps every code to a 4xx or 5xx status', () => {
    for (const code of ERROR_CODES) {
      expect(HTTP_STATUS_BY_CODE[code]).toBeGreaterThanOrEqual(400);
      expect(HTTP_STATUS_BY_CODE[code]).toBeLessThan(600);
    }
    expect(HTTP_STATUS_BY_CODE.INSUFFICIENT_FUNDS).toBe(400);
    expect(HTTP_STATUS_BY_CODE.RATE_NOT_AVAILABLE).toBe(404);
    expect(HTTP_STATUS_BY_CODE.IDEMPOTENCY_CONFLICT).toBe(409);
  });

  it('flattens nested validation errors into dotted fields', () => {
    const child = Object.assign(new ValidationError(), { property: 'email', constraints: { isEmail: 'email must be an email' } });
    const parent = Object.assign(new ValidationError(), { property: 'user', constraints: {}, children: [child] });
    const unknown = Object.assign(new ValidationError(), {
      property: 'role',
      constraints: { whitelistValidation: 'property role should not exist' },
    });
    expect(flattenValidationErrors([parent, unknown])).toEqual([
      { field: 'user.email', message: 'email must be an email' },
      { field: 'role', message: 'unknown field' },
    ]);
    expect(DomainError.validation(flattenValidationErrors([parent, unknown])).message).toBe('user.email: email must be an email (and 1 more)');
  });
});
