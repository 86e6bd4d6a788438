import { DomainError } from '@hotel/platform';
import { parseJsonBody } from './request-input';

const parse = (text: string | Buffer) => parseJsonBody(typeof text === 'string' ? Buffer.from(text, 'utf8') : text);

/** The refusal parseJsonBody throws: code, message and the fields named. */
function refusal(text: string | Buffer): { code: string; message: string; fields: string[] } {
  try {
    parse(text);
  } catch (error) {
    const domain = error as DomainError;
    return { code: domain.code, message: domain.message, fields: (domain.errors ?? []).map((e) => e.field) };
  }
  throw new Error(`accepted: ${String(text).slice(0, 80)}`);
}

/** An object `depth` levels deep, arrays inside. */
const nested = (depth: number) => '{"a":' + '['.repeat(depth - 1) + '1' + ']'.repeat(depth - 1) + '}';

describe('parseJsonBody', () => {
  it('parses an object as JSON.parse does', () => {
    const text = '{"a":[1,2.5,-0,1e-7,1e300,"x\\u00e9😀",{"b":null,"c":true}],"d":"[[[{{{"}';
    expect(parse(text)).toEqual(JSON.parse(text));
  });

  it('refuses nesting deeper than 32 levels before parsing anything, even in 1 MiB of brackets', () => {
    expect(() => parse(nested(32))).not.toThrow();
    expect(refusal(nested(33))).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringMatching(/deeper than 32/) });
    const started = performance.now();
    expect(refusal('['.repeat(1024 * 1024)).message).toMatch(/deeper than 32/);
    expect(refusal('{"a":'.repeat(200_000)).message).toMatch(/deeper than 32/);
    expect(performance.now() - started).toBeLessThan(500);
    // Brackets inside strings are text.
    expect(parse(`{"a":"${'['.repeat(1000)}"}`)).toEqual({ a: '['.repeat(1000) });
  });

  it('refuses more than 10,000 values, naming the field that holds them', () => {
    const list = (n: number) => `{"hotel_ids":[${Array.from({ length: n }, () => 1).join(',')}]}`;
    expect(() => parse(list(9_999))).not.toThrow();
    expect(refusal(list(10_001))).toEqual({ code: 'VALIDATION_FAILED', message: expect.stringMatching(/more than 10000 values/), fields: ['hotel_ids'] });
  });

  it('refuses duplicate keys, however they are written, and prototype keys, at any depth', () => {
    expect(refusal('{"a":1,"a":2}').fields).toEqual(['a']);
    expect(refusal('{"a":1,"\\u0061":2}').fields).toEqual(['a']);
    expect(refusal('{"rooms":[{"x":1},{"x":1,"x":2}]}').fields).toEqual(['rooms.1.x']);
    for (const key of ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '__defineGetter__']) {
      expect(refusal(`{"filters":{"${key}":{}}}`)).toMatchObject({ message: expect.stringMatching(/not allowed/), fields: [`filters.${key}`] });
    }
    // The same key in two objects is fine.
    expect(parse('{"a":{"x":1},"b":{"x":1}}')).toEqual({ a: { x: 1 }, b: { x: 1 } });
  });

  it('refuses numbers a double does not hold: out of range, or below its precision', () => {
    for (const number of ['1e400', '-1e400', '1e-400', '1E-320', '5e-324', '0.' + '0'.repeat(400) + '1', '1' + '0'.repeat(400)]) {
      expect(refusal(`{"booking_amount":${number}}`)).toMatchObject({ message: expect.stringMatching(/out of range/), fields: ['booking_amount'] });
    }
    expect(parse('{"a":0,"b":0.0,"c":-0,"d":0e10,"e":2.2250738585072014e-308,"f":1.7976931348623157e308}')).toMatchObject({ a: 0, e: 2.2250738585072014e-308 });
  });

  it('refuses NUL and unpaired surrogates in values and keys, naming the field', () => {
    expect(refusal('{"first":"Ada\\u0000"}')).toMatchObject({ fields: ['first'], message: expect.stringMatching(/NUL/) });
    expect(refusal('{"rooms":[{"name":"A"},{"name":"\\ud800"}]}')).toMatchObject({ fields: ['rooms.1.name'], message: expect.stringMatching(/surrogate/) });
    expect(refusal('{"a":["\\udc00x"]}').fields).toEqual(['a.0']);
    expect(refusal('{"a\\u0000":1}').code).toBe('VALIDATION_FAILED');
    expect(parse('{"a":"\\ud83d\\ude00"}')).toEqual({ a: '😀' });
  });

  it('refuses invalid UTF-8, invalid JSON, empty bodies and bodies that are not objects', () => {
    expect(refusal(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d])).message).toMatch(/UTF-8/);
    expect(refusal(Buffer.from([0x7b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x3a, 0x31, 0x7d])).message).toMatch(/UTF-8/);
    for (const text of ['{', '{"a":1}}', "{'a':1}", '{"a":NaN}', '{"a":01}', '{"a":1,}']) expect(refusal(text).message).toMatch(/not valid JSON/);
    expect(refusal('  ').message).toMatch(/empty/);
    for (const text of ['[]', 'null', '1', '"x"', 'true']) expect(refusal(text).message).toMatch(/must be a JSON object/);
  });
});
