/**
 * A file in the format of the European Central Bank's daily reference rates
 * (eurofxref-daily.xml) for one day: units of each currency per euro, as the ECB
 * writes them. For tests and the fault-injection run, which need rates of their own
 * (today's date, or a currency the shipped snapshot does not quote).
 */
export function ecbDailyXml(date: string, rates: Record<string, string>): string {
  const cubes = Object.entries(rates).map(([currency, rate]) => `\t\t\t<Cube currency='${currency}' rate='${rate}'/>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">',
    '\t<gesmes:subject>Reference rates</gesmes:subject>',
    '\t<gesmes:Sender>',
    '\t\t<gesmes:name>European Central Bank</gesmes:name>',
    '\t</gesmes:Sender>',
    '\t<Cube>',
    `\t\t<Cube time='${date}'>`,
    ...cubes,
    '\t\t</Cube>',
    '\t</Cube>',
    '</gesmes:Envelope>',
    '',
  ].join('\n');
}

/** The ECB's rates of 26 May 2020 for a few currencies, plus a KWD rate (three decimals), for tests. */
export const TEST_FX_RATES: Record<string, string> = { USD: '1.0975', JPY: '117.92', GBP: '0.88878', KWD: '0.3378', CHF: '1.0600' };
