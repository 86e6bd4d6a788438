import { HotelApiError, HotelClient, HotelClientOptions, RetryEvent } from '@hotel/sdk';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { GUEST, TWO_ADULTS, httpsFetch, staySequence } from '@hotel/testing';
import { ClientKeys, TestSystem } from './system';

const nextStay = staySequence(40);
/** Stays that never share a night, with their rooms typed as the SDK wants them. */
const stays = () => ({ ...nextStay(), rooms: TWO_ADULTS });

/** The partners' SDK (libs/sdk) against the whole platform, over HTTPS with the gateway's certificate. */
describe('the SDK', () => {
  let system: TestSystem, acme: ClientKeys;
  let sdk: (options?: Partial<HotelClientOptions>) => HotelClient;

  beforeAll(async () => {
    ({ system, acme } = await TestSystem.startWithClient());
    const fetch = httpsFetch(system.gateway.certificate);
    sdk = (options = {}) => new HotelClient({ baseUrl: system.url, apiKey: acme.sandbox_api_key, backendToken: acme.backend_token, fetch, ...options });
  });
  afterAll(() => system?.close());

  it('books a sandbox stay end to end: places, search, hotel rates, prebook, book, voucher, cancel', async () => {
    const client = sdk();
    expect(client.isSandbox).toBe(true);
    expect(await client.getIdentity()).toEqual({ client_id: acme.client_id, user_id: null, is_sandbox: true, currency: 'USD', currency_decimals: 2, fx_margin_percent: '0' });

    const { results: places } = await client.searchPlaces({ text_query: 'paris', limit: 1 });
    const search = await client.searchUntilComplete({ place_id: places[0].place_id, ...stays() });
    expect(search.search_completed).toBe(true);
    const hotelId = search.results[0].hotel.id;
    const hotel = await client.hotelRatesUntilComplete({ hotel_id: hotelId, session_id: search.session_id });
    expect(hotel.search_completed).toBe(true);
    const rate = { hotel_id: hotelId, session_id: search.session_id, rate_id: hotel.rates[0].id, payment_method: 'account' as const };

    const prebook = await client.prebookRate(rate);
    expect(prebook.rate.id).toBe(rate.rate_id);
    const booking = await client.bookRate(rate, { ...GUEST, client_reference: 'SDK-E2E-1' });
    expect(booking).toMatchObject({ status: 'confirmed', is_sandbox: true, client_reference: 'SDK-E2E-1', price_chargeable: prebook.rate.price_chargeable });

    // The voucher link points at PUBLIC_BASE_URL; the test gateway listens elsewhere, so its values go to this one.
    const link = new URL(booking.voucher_url!);
    const pdf = await client.getVoucher({ booking_id: booking.id, expires: link.searchParams.get('expires')!, signature: link.searchParams.get('signature')! });
    expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe('%PDF-');

    const precancel = await client.previewCancellation(booking.id);
    const cancelled = await client.cancelBooking(booking.id);
    expect(cancelled).toMatchObject({ cancelled: true, cancellation_reference: expect.any(String) });
    expect(await client.cancelBooking(booking.id)).toEqual(cancelled);
    const listed = await client.listBookings({ client_reference: 'SDK-E2E-1' });
    expect(listed).toMatchObject({ total: 1, data: [{ id: booking.id, status: 'cancelled' }] });
    expect(precancel.price_cancellation_penalty).toBeLessThanOrEqual(booking.price_chargeable);
  });

  it('books through V2 and answers a repeat with the same idempotency_key with the same booking', async () => {
    const client = sdk();
    const stay = stays();
    const { rates } = await client.searchRatesV2({ place_id: 'gn:2988507', ...stay, limit: 1 });
    const prebook = await client.prebookV2({ rate_id: rates[0].id, payment_method: 'credit_card' });
    const body = { prebook_id: prebook.prebook_id, ...GUEST, payment_token: 'tok_visa', payment_first_name: 'Ada', payment_last_name: 'Lovelace', payment_postal_code: 'N1 9GU', payment_expiration: '12/30', idempotency_key: 'sdk-e2e-v2-1' };
    const first = await client.bookV2(body);
    const again = await client.bookV2(body);
    expect(again).toMatchObject({ id: first.id, status: 'confirmed', payment_method: 'credit_card' });
  });

  it('throws HotelApiError with the code, the status, the field errors and the request id', async () => {
    const client = sdk();
    const unknownSession = await client.pollSearch('00000000-0000-4000-8000-000000000000', { requestId: 'sdk-e2e-404' }).catch((error) => error);
    expect(unknownSession).toBeInstanceOf(HotelApiError);
    expect(unknownSession).toMatchObject({ status: 404, code: 'NOT_FOUND', requestId: 'sdk-e2e-404', attempts: 1 });

    const invalid = await client.searchHotels({ place_id: 'gn:2988507', ...stays(), colour: 'blue' } as any).catch((error) => error);
    expect(invalid).toBeInstanceOf(HotelApiError);
    expect(invalid).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', errors: [{ field: 'colour', message: 'unknown field' }] });
    expect(invalid.requestId).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);

    // A sandbox scenario through the SDK's option.
    const search = await client.searchUntilComplete({ place_id: 'gn:2988507', ...stays() });
    const hotel = await client.getHotelRates({ hotel_id: search.results[0].hotel.id, session_id: search.session_id });
    const soldOut = await client
      .prebookRate({ hotel_id: hotel.hotel.id, session_id: search.session_id, rate_id: hotel.rates[0].id, payment_method: 'account' }, { testScenario: 'sold_out' })
      .catch((error) => error);
    expect(soldOut).toMatchObject({ status: 404, code: 'RATE_NOT_AVAILABLE' });
  });

  it('waits out a rate limit: 429s are retried after Retry-After until every call is answered', async () => {
    const other = await system.createClient('Rate Limited Travel');
    expect((await system.admin('set-rate-limit', '--client-id', String(other.client_id), '--rps', '2', '--burst', '2')).code).toBe(0);
    const retries: RetryEvent[] = [];
    const client = sdk({ apiKey: other.sandbox_api_key, onRetry: (event) => retries.push(event) });
    const answers = await Promise.all(Array.from({ length: 5 }, () => client.getIdentity()));
    expect(answers.every((answer) => answer.client_id === other.client_id)).toBe(true);
    expect(retries.length).toBeGreaterThan(0);
    for (const retry of retries) {
      expect(retry.error).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
      expect(retry.delayMs).toBeGreaterThanOrEqual((retry.error as HotelApiError).retryAfterSeconds! * 1000);
    }
  });

  it('reads the backend API with the backend token', async () => {
    const client = sdk();
    const user = await client.createUser({ firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com', phone: '+1 202 555 0100', clientAccountLimit: 500 });
    expect(await client.getUser(user.id)).toMatchObject({ id: user.id, clientAccountLimit: '500.00' });
    const balance = await client.getBalance();
    expect(balance).toBeDefined();
    expect(await client.listBackendBookings({ limit: 1 })).toMatchObject({ total: expect.any(Number) });
  });

  it('ships as a package: npm pack, installed into a new project outside the workspace, books a sandbox stay there and type-checks against its declarations', async () => {
    const root = resolve(__dirname, '../../..');
    const project = mkdtempSync(join(tmpdir(), 'hotel-sdk-consumer-'));
    try {
      const shell = (command: string, args: string[], env: Record<string, string> = {}) => {
        const result = spawnSync(command, args, { cwd: project, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120_000 });
        return { status: result.status, output: `${result.stdout}${result.stderr}`, stdout: result.stdout };
      };
      const packed = shell(process.execPath, [join(root, 'tools/sdk-package.js'), '--pack', project]);
      expect(packed.status).toBe(0);
      const tarball = packed.stdout.trim().split('\n').pop()!;
      expect(tarball).toMatch(/hotel-sdk-\d+\.\d+\.\d+\.tgz$/);
      const listing = shell('tar', ['tzf', tarball]).stdout.trim().split('\n').sort();
      // What ships: the manifest, the docs, and lib/ with a declaration beside every module; no sources, no specs.
      expect(listing.filter((file) => !/^package\/lib\/[\w-]+\.(js|d\.ts)$/.test(file))).toEqual(['package/CHANGELOG.md', 'package/README.md', 'package/package.json']);
      const modules = listing.filter((file) => file.endsWith('.js'));
      expect(modules.map((file) => file.replace(/\.js$/, '.d.ts')).every((declaration) => listing.includes(declaration))).toBe(true);
      expect(listing.some((file) => /spec/.test(file))).toBe(false);

      // A partner's project: nothing of the workspace, an ES module, the tarball installed (no dependencies to fetch).
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'partner-app', private: true, type: 'module' }));
      const installed = shell('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball]);
      expect(installed.output).not.toMatch(/ERR!/);
      expect(installed.status).toBe(0);
      expect(readdirSync(join(project, 'node_modules')).filter((name) => !name.startsWith('.'))).toEqual(['@hotel']);

      writeFileSync(
        join(project, 'book.js'),
        `import { HotelClient } from '@hotel/sdk';
const hotel = new HotelClient({ baseUrl: process.env.HOTEL_API_URL, apiKey: process.env.HOTEL_API_KEY });
const { results: places } = await hotel.searchPlaces({ text_query: 'paris', limit: 1 });
const stay = JSON.parse(process.env.HOTEL_STAY);
const { rates } = await hotel.searchRatesV2({ place_id: places[0].place_id, ...stay, limit: 1 });
const prebook = await hotel.prebookV2({ rate_id: rates[0].id, payment_method: 'account' });
const booking = await hotel.bookV2({ prebook_id: prebook.prebook_id, rooms: [{ lead_first_name: 'Ada', lead_last_name: 'Lovelace' }], email: 'ada@example.com', phone: '+44 20 7946 0000', client_reference: 'SDK-PACKAGE-1' });
console.log(JSON.stringify({ sandbox: hotel.isSandbox, id: booking.id, status: booking.status, is_sandbox: booking.is_sandbox, client_reference: booking.client_reference }));
`,
      );
      const caFile = join(project, 'gateway-ca.pem');
      writeFileSync(caFile, system.gateway.certificate);
      // Asynchronously: the gateway answering it runs in this process.
      const booked = await promisify(execFile)(process.execPath, ['book.js'], {
        cwd: project,
        env: { ...process.env, HOTEL_API_URL: system.url, HOTEL_API_KEY: acme.sandbox_api_key, HOTEL_STAY: JSON.stringify(stays()), NODE_EXTRA_CA_CERTS: caFile },
        timeout: 60_000,
      });
      expect(booked.stderr).toBe('');
      expect(JSON.parse(booked.stdout.trim())).toEqual({ sandbox: true, id: expect.any(Number), status: 'confirmed', is_sandbox: true, client_reference: 'SDK-PACKAGE-1' });

      // CommonJS callers get the same exports.
      const required = shell(process.execPath, ['-e', "const sdk = require('@hotel/sdk'); console.log(typeof sdk.HotelClient, typeof sdk.HotelApiError, Object.keys(sdk.OPERATIONS).includes('bookV2'))"]);
      expect(required.stdout.trim()).toBe('function function true');

      // A TypeScript partner: the declarations resolve through `exports` and type the calls
      // (the expected error proves the types are not `any`).
      writeFileSync(
        join(project, 'typed.ts'),
        `import { HotelClient, HotelApiError, type BookingView, type V2BookBody } from '@hotel/sdk';
const hotel = new HotelClient({ baseUrl: 'https://localhost:8443', apiKey: 'hb_test_x' });
export async function book(body: V2BookBody): Promise<BookingView['status']> {
  try {
    return (await hotel.bookV2(body)).status;
  } catch (error) {
    if (error instanceof HotelApiError && error.code === 'RATE_NOT_AVAILABLE') return 'failed';
    throw error;
  }
}
// @ts-expect-error a V2 book takes a prebook_id, not a rate_id
export const wrong = () => hotel.bookV2({ rate_id: 'r' });
`,
      );
      const typed = shell(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--lib', 'es2022,dom', 'typed.ts']);
      expect(typed.output).toBe('');
      expect(typed.status).toBe(0);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
