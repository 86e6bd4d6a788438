import { isUnavailableError } from './unavailable';

describe('isUnavailableError', () => {
  it.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['an administrator ending the connection', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['a connection exception class', Object.assign(new Error('connection failure'), { code: '08006' })],
    ['node-postgres losing the connection', new Error('Connection terminated unexpectedly')],
    ['the pool timing out', new Error('timeout exceeded when trying to connect')],
    ['TypeORM wrapping a driver error', Object.assign(new Error('query failed'), { driverError: Object.assign(new Error('x'), { code: '57P03' }) })],
  ])('is true for %s', (_what, error) => {
    expect(isUnavailableError(error)).toBe(true);
  });

  it.each([
    ['a unique violation', Object.assign(new Error('duplicate key'), { code: '23505' })],
    ['a programming error', new TypeError('cannot read properties of undefined')],
    ['a non-error', 'boom'],
    ['null', null],
  ])('is false for %s', (_what, error) => {
    expect(isUnavailableError(error)).toBe(false);
  });
});
