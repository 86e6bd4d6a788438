import { ServiceHarness, startServiceHarness } from '@hotel/testing';
import { RATES_ENTITIES, RATES_MIGRATIONS, RatesAppModule } from '../src/rates-app.module';
import { RatesEnv } from '../src/rates.env';

/** For service-tier tests: the rates service's providers and migrations in the service harness. */
export function startRatesHarness(): Promise<ServiceHarness<RatesEnv>> {
  return startServiceHarness({
    name: 'rates',
    envClass: RatesEnv,
    providers: (env) => RatesAppModule.register(env).providers ?? [],
    entities: RATES_ENTITIES,
    migrations: RATES_MIGRATIONS,
  });
}

/** A file in the ECB's daily format (eurofxref-daily.xml) of one reference date, for import tests. */
export function ecbDailyXml(date: string, rates: Record<string, string>): string {
  const cubes = Object.entries(rates).map(([currency, rate]) => `\t\t\t<Cube currency='${currency}' rate='${rate}'/>\n`);
  return `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
\t<gesmes:subject>Reference rates</gesmes:subject>
\t<gesmes:Sender>
\t\t<gesmes:name>European Central Bank</gesmes:name>
\t</gesmes:Sender>
\t<Cube>
\t\t<Cube time='${date}'>
${cubes.join('')}\t\t</Cube>
\t</Cube>
</gesmes:Envelope>
`;
}
