import { csvField, csvRecord, formulaSafe } from './csv';

/** The field as a spreadsheet reads it back in a comma locale (outer quotes off, doubled quotes single). */
const unquoted = (field: string) => (field.startsWith('"') ? field.slice(1, -1).replace(/""/g, '"') : field);

/** The cells a spreadsheet whose list separator is `separator` makes of one written line: it splits at every separator and line break, quotes or not. */
const cellsIn = (line: string, separator: string) => line.split(new RegExp(`[${separator}\r\n]`));

describe('CSV fields', () => {
  it('quotes commas, quotes and line breaks (RFC 4180)', () => {
    expect(csvRecord(['a', 'b,c', 'say "hi"', 'two\nlines', null, 12.5])).toBe('a,"b,c","say ""hi""","two\nlines",,12.5\r\n');
  });

  it('escapes a field that starts as a formula, but keeps plain numbers numeric', () => {
    for (const formula of ['=1+1', '+1+1', '-1+1', '@SUM(A1)', '\tx', '\rx', '=HYPERLINK("http://x")']) {
      expect(unquoted(csvField(formula))).toBe(`'${formula}`);
    }
    expect(csvField('-12.50')).toBe('-12.50');
    expect(csvField(-12.5)).toBe('-12.5');
    expect(csvField('0.00')).toBe('0.00');
    expect(csvField('-1e3')).toBe("'-1e3");
    expect(csvField('=a,b')).toBe(`"'=a,b"`);
  });

  it('escapes a formula after leading whitespace', () => {
    expect(formulaSafe(' =1+1')).toBe("' =1+1");
    expect(formulaSafe('   +1+1')).toBe("'   +1+1");
    expect(formulaSafe('\u00a0-1+1')).toBe("'\u00a0-1+1");
    expect(formulaSafe(' @SUM(A1)')).toBe("' @SUM(A1)");
    expect(formulaSafe('\t=1+1')).toBe("'\t'=1+1");
    expect(formulaSafe('\n=1+1')).toBe("\n'=1+1");
    expect(formulaSafe(' -12.50 ')).toBe(' -12.50 ');
    // A reader that splits inside a quoted field sees its quote marks before the formula.
    expect(formulaSafe('"=1+1"')).toBe(`'"=1+1"`);
    expect(formulaSafe('a;"=1+1"')).toBe(`a;'"=1+1"`);
  });

  it('escapes a formula after any separator a locale may use (, ; tab) and after a line break', () => {
    expect(formulaSafe('a;=1+1')).toBe("a;'=1+1");
    expect(formulaSafe('a,=1+1')).toBe("a,'=1+1");
    expect(formulaSafe('a\t=1+1')).toBe("a\t'=1+1");
    expect(formulaSafe('a\r\n=1+1')).toBe("a\r\n'=1+1");
    expect(formulaSafe('a; +1+1')).toBe("a;' +1+1");
    expect(formulaSafe('a;-1+1;b,@x')).toBe("a;'-1+1;b,'@x");
    expect(formulaSafe('=1;=2')).toBe("'=1;'=2");
    // Plain numbers and text stay as they are.
    expect(formulaSafe('Refund; -12.50')).toBe('Refund; -12.50');
    expect(formulaSafe('Rooms 1,2;3')).toBe('Rooms 1,2;3');
    expect(formulaSafe('a=1+1; b-2, c@d')).toBe('a=1+1; b-2, c@d');
    expect(csvField('a,=1+1')).toBe(`"a,'=1+1"`);
  });

  it('leaves no cell a formula in a comma, semicolon or tab locale, however it splits the line', () => {
    const hostile = ['a;=1+1', ' =1+1', 'x,=cmd|calc', 'x\t@SUM(A1)', 'x;  -1+1', 'two\n=lines', '"quoted";=1', 'a;"=1+1"', '-12.50'];
    const line = csvRecord(hostile).slice(0, -2);
    for (const separator of [',', ';', '\t']) {
      const formulas = cellsIn(line, separator).filter((cell) => /^[\s"]*[=+\-@]/.test(cell) && !/^\s*-?\d+(\.\d+)?\s*$/.test(cell));
      expect({ separator, formulas }).toEqual({ separator, formulas: [] });
    }
  });
});
