import { readBookingRS } from './answer-readers';
import { decimal, integer, ShapeError } from './reader';
import { hotelbedsSignature } from './signature';
import { classifyVendorError, vendorErrorOf } from './vendor-errors';

describe('the X-Signature', () => {
  it('is the SHA-256 hex of key + secret + Unix seconds (as `echo -n key secret seconds | sha256sum`)', () => {
    expect(hotelbedsSignature('yourApiKey', 'yourSecret', 1700000000)).toBe('bd00a3ad2265917c57d052cb5fed4dcb74b9d157f6b53bfb60c95938f63b0fcd');
  });
});

describe('amounts', () => {
  it('are decimal strings, whether the vendor writes a string or a number', () => {
    expect(decimal('302.26', 'totalNet')).toBe('302.26');
    expect(decimal(899.23, 'totalNet')).toBe('899.23');
    expect(decimal(-99.91, 'amount')).toBe('-99.91');
    expect(decimal(0, 'amount')).toBe('0');
  });

  it('refuse what is not a plain decimal', () => {
    for (const value of ['1e5', 'NaN', '', ' 1', '1,5', Infinity, true, null]) expect(() => decimal(value, 'net')).toThrow(ShapeError);
  });

  it('integers may come as numeric strings, never as fractions', () => {
    expect(integer('60', 'zoneCode')).toBe(60);
    expect(() => integer(1.5, 'zoneCode')).toThrow(ShapeError);
  });

  it('a booking whose totals are JSON numbers reads them as decimals', () => {
    const read = readBookingRS({ booking: { reference: '207-12306403', status: 'CONFIRMED', totalNet: 899.23, pendingAmount: 899.23, currency: 'GBP' } }, '');
    expect(read.booking).toEqual({ reference: '207-12306403', status: 'CONFIRMED', totalNet: '899.23', pendingAmount: '899.23', currency: 'GBP' });
  });

  it('an unknown booking status is a shape error, not a guess', () => {
    expect(() => readBookingRS({ booking: { reference: 'x', status: 'MAYBE' } }, '')).toThrow('booking.status: expected one of');
  });
});

describe('vendor error answers', () => {
  it('read the formatted body, the gateway page and the gateway header', () => {
    expect(vendorErrorOf(Buffer.from('{"auditData":{},"error":{"code":"INVALID_DATA","message":"bad"}}'), {})).toEqual({ vendorCode: 'INVALID_DATA', vendorMessage: 'bad' });
    expect(vendorErrorOf(Buffer.from('<h1>Developer Over Qps</h1>'), { 'x-mashery-error-code': 'ERR_403_DEVELOPER_OVER_QPS' })).toEqual({
      vendorCode: 'ERR_403_DEVELOPER_OVER_QPS',
      vendorMessage: 'Developer Over Qps',
    });
    expect(vendorErrorOf(Buffer.from('{"error":"Too many requests"}'), {})).toEqual({ vendorCode: undefined, vendorMessage: 'Too many requests' });
    expect(vendorErrorOf(Buffer.alloc(0), {})).toEqual({ vendorCode: undefined, vendorMessage: undefined });
  });

  it('map statuses and codes to kinds', () => {
    const kindOf = (status: number, code?: string, message?: string) => {
      const { kind, code: ours, transient } = classifyVendorError(status, code, message);
      return `${kind} ${ours}${transient ? ' transient' : ''}`;
    };
    expect(kindOf(400, 'INVALID_REQUEST')).toBe('invalid INVALID_REQUEST');
    expect(kindOf(400, 'PRODUCT_ERROR', 'Price has changed')).toBe('refused PRICE_CHANGED');
    expect(kindOf(500, 'PRODUCT_ERROR', 'Stop sales')).toBe('refused RATE_NOT_AVAILABLE');
    expect(kindOf(410, 'INVALID_DATA', 'Insufficient allotment')).toBe('refused RATE_NOT_AVAILABLE');
    expect(kindOf(400, 'PRODUCT_ERROR', 'Booking cannot be cancelled after check-in')).toBe('refused REFUSED');
    expect(kindOf(401)).toBe('invalid UNAUTHORIZED');
    expect(kindOf(403, undefined, 'Developer Inactive')).toBe('invalid UNAUTHORIZED');
    expect(kindOf(403, 'ERR_403_DEVELOPER_OVER_QPS')).toBe('unavailable RATE_LIMITED transient');
    expect(kindOf(403, 'ERR_403_DEVELOPER_OVER_RATE')).toBe('unavailable QUOTA_EXCEEDED');
    expect(kindOf(404)).toBe('invalid NOT_FOUND');
    expect(kindOf(429)).toBe('unavailable RATE_LIMITED transient');
    expect(kindOf(503)).toBe('unavailable VENDOR_FAILURE transient');
    expect(kindOf(200, 'SYSTEM_ERROR')).toBe('unavailable VENDOR_FAILURE');
  });
});
