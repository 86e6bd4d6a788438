import { commaJoinedChunks } from './v2-rates';

describe('raw reply chunks', () => {
  const chunked = (values: (string | Uint8Array)[]) => [...commaJoinedChunks(values)];

  it('joins values into chunks under the NATS message size, each a comma-separated run of whole values', () => {
    expect(chunked([])).toEqual([]);
    expect(Buffer.from(chunked(['{"a":1}', '{"b":"é"}'])[0]).toString()).toBe('{"a":1},{"b":"é"}');
    const item = `{"x":"${'é'.repeat(5_000)}"}`;
    const chunks = chunked(Array.from({ length: 30 }, () => item));
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(60 * 1024);
    expect(JSON.parse(`[${chunks.map((chunk) => Buffer.from(chunk).toString()).join(',')}]`)).toEqual(Array(30).fill({ x: 'é'.repeat(5_000) }));
    // An item larger than a chunk goes alone, whole.
    const big = `{"x":"${'é'.repeat(100_000)}"}`;
    const alone = chunked([item, big, item]);
    expect(alone.map((chunk) => Buffer.from(chunk).toString())).toEqual([item, big, item]);
  });

  it('takes UTF-8 bytes as well as strings (serialized rates)', () => {
    const rates = ['{"id":"a"}', '{"id":"é"}'].map((json) => Buffer.from(json));
    expect(chunked(rates).map((chunk) => Buffer.from(chunk).toString())).toEqual(['{"id":"a"},{"id":"é"}']);
  });
});
