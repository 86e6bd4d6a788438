import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EcbFormatError, parseEcbDaily } from './ecb-daily.parser';

const REAL = readFileSync(join(__dirname, 'ecb-eurofxref-snapshot.xml'), 'utf8');
const TODAY = new Date('2026-11-25T12:00:00Z');
const parse = (xml: string) => parseEcbDaily(xml, TODAY);

/** The real file with one replacement (each must apply). */
function variant(from: string | RegExp, to: string): string {
  const changed = REAL.replace(from, to);
  if (changed === REAL) throw new Error(`no ${from} in the file`);
  return changed;
}

/** A daily file of the ECB's shape with other days and rates. */
function daily(days: { time: string; rates: [string, string][] }[]): string {
  const cubes = days.map((day) => `\t\t<Cube time="${day.time}">\n${day.rates.map(([currency, rate]) => `\t\t\t<Cube currency="${currency}" rate="${rate}"/>\n`).join('')}\t\t</Cube>\n`);
  return variant(/\t\t<Cube time='2020-05-26'>[\s\S]*?\t\t<\/Cube>\n/, cubes.join(''));
}

describe('parseEcbDaily', () => {
  it('reads the real daily file of 26 May 2020: its date and 32 rates as written', () => {
    const { date, rates } = parse(REAL);
    expect(date).toBe('2020-05-26');
    expect(Object.keys(rates)).toHaveLength(32);
    expect(rates).toMatchObject({ USD: '1.0975', JPY: '117.92', GBP: '0.88878', HUF: '349.60', IDR: '16193.61', CHF: '1.0600' });
    expect(Object.keys(rates).slice(0, 3)).toEqual(['USD', 'JPY', 'BGN']);
  });

  it('takes double quotes, a byte order mark, no XML declaration, other whitespace, comments and other namespace prefixes', () => {
    const reshaped = `\uFEFF${REAL.replace(/^<\?xml[^>]*>\n/, '')}`
      .replace(/'/g, '"')
      .replace(/\t/g, '  ')
      .replace('<Cube currency="JPY"', '<!-- yen -->\n<Cube   currency = "JPY"\n')
      .replace(/gesmes:/g, 'g:')
      .replace('xmlns:gesmes=', 'xmlns:g=');
    expect(parse(reshaped)).toEqual(parse(REAL));
    const eurofxrefPrefixed = daily([{ time: '2020-05-27', rates: [['USD', '1.1']] }])
      .replace(/<(\/?)Cube/g, '<$1e:Cube')
      .replace('xmlns="http', 'xmlns:e="http');
    expect(parse(eurofxrefPrefixed)).toEqual({ date: '2020-05-27', rates: { USD: '1.1' } });
  });

  it.each([
    ['a DOCTYPE', variant('<gesmes:Envelope', '<!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<gesmes:Envelope'), /DOCTYPE and entity declarations are refused/],
    ['an entity declaration', variant('<gesmes:Envelope', '<!ENTITY xxe SYSTEM "file:///etc/passwd">\n<gesmes:Envelope'), /DOCTYPE and entity declarations are refused/],
    ['an entity reference in a value', variant("rate='1.0975'", "rate='&xxe;'"), /entity reference in the value of rate/],
    ['an unknown entity in text', variant('Reference rates', 'Reference &xxe;'), /entity reference other than/],
    ['CDATA', variant('Reference rates', '<![CDATA[x]]>'), /CDATA/],
    ['a processing instruction', variant('<gesmes:Envelope', '<?xml-stylesheet href="x"?>\n<gesmes:Envelope'), /processing instructions/],
    ['another encoding', variant('encoding="UTF-8"', 'encoding="ISO-8859-1"'), /encoding UTF-8/],
    ['no date', variant("<Cube time='2020-05-26'>", '<Cube>'), /<Cube> has no time/],
    ['no day at all', daily([]), /no date/],
    ['an impossible date', variant("time='2020-05-26'", "time='2020-02-30'"), /time '2020-02-30' is not a date YYYY-MM-DD/],
    ['a date written otherwise', variant("time='2020-05-26'", "time='26.05.2020'"), /not a date/],
    ['a date before the euro', variant("time='2020-05-26'", "time='1998-12-31'"), /before the first euro reference rates/],
    ['a date in the future', variant("time='2020-05-26'", "time='2026-11-27'"), /2026-11-27 is in the future/],
    ['a lower-case currency', variant("currency='USD'", "currency='usd'"), /line 9: currency 'usd' is not three capital letters/],
    ['a four-letter currency', variant("currency='USD'", "currency='USDX'"), /not three capital letters/],
    ['a negative rate', variant("rate='1.0975'", "rate='-1.0975'"), /the rate of USD '-1.0975' is not a positive decimal/],
    ['a zero rate', variant("rate='1.0975'", "rate='0.000'"), /not a positive decimal/],
    ['an exponent', variant("rate='1.0975'", "rate='1e3'"), /not a positive decimal/],
    ['a comma', variant("rate='1.0975'", "rate='1,0975'"), /not a positive decimal/],
    ['an empty rate', variant("rate='1.0975'", "rate=''"), /not a positive decimal/],
    ['a huge rate', variant("rate='1.0975'", "rate='123456789012'"), /not a positive decimal/],
    ['a duplicate currency', variant("currency='JPY'", "currency='USD'"), /USD is listed twice/],
    ['EUR listed', variant("currency='JPY'", "currency='EUR'"), /EUR is listed/],
    ['no rates', daily([{ time: '2020-05-27', rates: [] }]),  /no rates for 2020-05-27/],
    ['more than one day (a 90-day file)', daily([{ time: '2020-05-27', rates: [['USD', '1.1']] }, { time: '2020-05-26', rates: [['USD', '1.09']] }]), /2 reference dates: only the ECB's daily file/],
    ['another root', variant(/gesmes:Envelope/g, 'gesmes:Other'), /not the ECB's gesmes:Envelope/],
    ['the gesmes namespace missing', variant(' xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01"', ''), /prefix gesmes .* not declared/],
    ['the eurofxref namespace missing', variant(' xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref"', ''), /unexpected element <Cube>|no <Cube> of the eurofxref/],
    ['an unclosed element', variant('</gesmes:Envelope>', ''), /<gesmes:Envelope> \(line 2\) is not closed/],
    ['a mismatched end tag', variant('</gesmes:Sender>', '</gesmes:Sendr>'), /closes <gesmes:Sender>/],
    ['a second root', `${REAL}<gesmes:Envelope/>`, /more than one root/],
    ['text outside the root', `${REAL}junk`, /text outside the root/],
    ['text among the rates', variant("<Cube currency='JPY'", "1.5 <Cube currency='JPY'"), /holds text/],
    ['an extra attribute', variant("rate='1.0975'", "rate='1.0975' note='x'"), /unexpected attribute note/],
    ['a repeated attribute', variant("rate='1.0975'", "rate='1.0975' rate='2'"), /rate twice/],
    ['an unquoted attribute', variant("rate='1.0975'", 'rate=1.0975'), /malformed/],
    ['a control character', variant('Reference rates', 'Reference\u0000rates'), /control character \(U\+0000\)/],
    ['an empty string', '', /empty/],
    ['JSON', '{"USD": "1.0975"}', /text outside the root/],
    ['HTML', '<html><body>Service unavailable</body></html>', /not the ECB's gesmes:Envelope/],
  ])('refuses %s with a message', (_what, xml, message) => {
    expect(() => parse(xml)).toThrow(EcbFormatError);
    expect(() => parse(xml)).toThrow(message);
  });

  it('refuses deep nesting and floods of elements before reading them', () => {
    expect(() => parse(variant('Reference rates', '<a>'.repeat(20) + '</a>'.repeat(20)))).toThrow(/nested more than 8 deep/);
    expect(() => parse(variant("<Cube currency='USD'", `${"<Cube currency='X' rate='1'/>".repeat(1001)}<Cube currency='USD'`))).toThrow(/more than 1000 elements/);
    const many = Array.from({ length: 201 }, (_, index) => [`A${String.fromCharCode(65 + Math.floor(index / 26))}${String.fromCharCode(65 + (index % 26))}`, '1'] as [string, string]);
    expect(() => parse(daily([{ time: '2020-05-27', rates: many }]))).toThrow(/more than 200 currencies/);
  });

  it('takes a reference date of today or tomorrow (time zones), not later', () => {
    expect(parse(variant("time='2020-05-26'", "time='2026-11-26'")).date).toBe('2026-11-26');
  });
});
