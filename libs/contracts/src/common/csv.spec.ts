import { csvField, csvRecord } from './csv';

describe('CSV fields', () => {
  it('quotes commas, quotes and line breaks (RFC 4180)', () => {
    expect(csvRecord(['a', 'b,c', 'say "hi"', 'two\nlines', null, 12.5])).toBe('a,"b,c","say ""hi""","two\nlines",,12.5\r\n');
  });

  it('escapes text a spreadsheet would run as a formula, but keeps plain numbers numeric', () => {
    for (const formula of ['=1+1', '+1+1', '-1+1', '@SUM(A1)', '\tx', '\rx', '=HYPERLINK("http://x")']) {
      expect(csvField(formula).replace(/^"|"$/g, '').startsWith("'")).toBe(true);
    }
    expect(csvField('-12.50')).toBe('-12.50');
    expect(csvField('0.00')).toBe('0.00');
    expect(csvField('-1e3')).toBe("'-1e3");
    expect(csvField('=a,b')).toBe(`"'=a,b"`);
  });
});
