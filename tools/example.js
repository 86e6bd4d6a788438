#!/usr/bin/env node
// @ts-check
// `npm run example`: books a sandbox stay end to end with the SDK (libs/sdk, built as its npm package into
// dist/libs/sdk) against a running platform (`npm start`), printing each step: identity, places,
// search (polled), hotel rates (polled), prebook, book, voucher, precancel, cancel, list.
// Exits 1 when a step fails (with the error's code, status and request id).
//
// The platform: HOTEL_API_URL, else the address the running `npm start` wrote
// (DATA_DIR/gateway.url), else https://localhost:$PORT (8443).
// The key: HOTEL_API_KEY (a sandbox key, hb_test_…), else a new client made with the admin
// command against the running system (DATA_DIR, as `npm start` was given, default .data),
// deleted again when a step fails (a run that succeeds leaves it, with its cancelled booking).
// The certificate: a local gateway's development certificate (DATA_DIR/tls/dev-cert.pem) is
// trusted by running this script again with NODE_EXTRA_CA_CERTS naming it (Node's fetch
// reads extra CAs only at start); for another gateway, set NODE_EXTRA_CA_CERTS yourself.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { ROOT, log, run } = require('./lib/workspace');

const DATA_DIR = path.resolve(ROOT, process.env.DATA_DIR || '.data');
const GATEWAY_URL_FILE = path.join(DATA_DIR, 'gateway.url');
const BASE_URL =
  process.env.HOTEL_API_URL || (fs.existsSync(GATEWAY_URL_FILE) ? fs.readFileSync(GATEWAY_URL_FILE, 'utf8').trim() : `https://localhost:${process.env.PORT || 8443}`);
const DEV_CERT = path.join(DATA_DIR, 'tls', 'dev-cert.pem');

/**
 * Runs this script again with NODE_EXTRA_CA_CERTS naming a bundle of the development
 * certificate and the file NODE_EXTRA_CA_CERTS already named, if any (it takes one file).
 */
function trustDevelopmentCertificate() {
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(new URL(BASE_URL).hostname);
  if (process.env.HOTEL_EXAMPLE_TRUSTS || !local || !fs.existsSync(DEV_CERT)) return;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hotel-example-'));
  const bundle = path.join(dir, 'ca.pem');
  const extra = process.env.NODE_EXTRA_CA_CERTS;
  fs.writeFileSync(bundle, `${extra && fs.existsSync(extra) ? `${fs.readFileSync(extra, 'utf8')}\n` : ''}${fs.readFileSync(DEV_CERT, 'utf8')}`);
  const env = { ...process.env, NODE_EXTRA_CA_CERTS: bundle, HOTEL_EXAMPLE_TRUSTS: DEV_CERT };
  const child = spawnSync(process.execPath, [__filename, ...process.argv.slice(2)], { stdio: 'inherit', env });
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(child.status ?? 1);
}

/** HOTEL_API_KEY, or the sandbox key of a new client made with the admin command. */
function sandboxKey() {
  if (process.env.HOTEL_API_KEY) return { key: process.env.HOTEL_API_KEY, origin: 'HOTEL_API_KEY' };
  const name = `SDK example ${new Date().toISOString()}`;
  const admin = spawnSync(process.execPath, [path.join(ROOT, 'tools/admin.js'), 'create-client', '--name', name], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR },
    encoding: 'utf8',
  });
  if (admin.status !== 0) {
    throw new Error(`could not create a client with the admin command (is \`npm start\` running with this DATA_DIR?): ${admin.stderr.trim()}`);
  }
  /** @type {{ client_id: number, sandbox_api_key: string }} what create-client prints */
  const client = JSON.parse(admin.stdout);
  madeClientId = client.client_id;
  return { key: client.sandbox_api_key, origin: `new client ${client.client_id} "${name}" (admin create-client)` };
}

/** The client this run made, if any: deleted again when a step fails. @type {number | null} */
let madeClientId = null;

function deleteMadeClient() {
  if (madeClientId === null) return;
  const admin = spawnSync(process.execPath, [path.join(ROOT, 'tools/admin.js'), 'delete-client', '--client-id', String(madeClientId)], { cwd: ROOT, env: { ...process.env, DATA_DIR }, encoding: 'utf8' });
  process.stderr.write(admin.status === 0 ? `deleted the client this run made (${madeClientId})\n` : `could not delete the client this run made (${madeClientId}): ${admin.stderr.trim()}\n`);
}

/** @param {number} offset days from today */
const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
/**
 * @param {number} amount
 * @param {string} currency
 */
const money = (amount, currency) => `${amount.toFixed(2)} ${currency}`;

let step = 0;
let current = 'start';
/**
 * @param {string} name
 * @param {string} text
 */
function print(name, text) {
  process.stdout.write(`${String(++step).padStart(2)}. ${name.padEnd(12)} ${text}\n`);
}

async function main() {
  trustDevelopmentCertificate();
  // The SDK as partners get it: its own build, nothing else of the workspace.
  run(process.execPath, [path.join(ROOT, 'tools/sdk-package.js')], { stdio: ['ignore', 'ignore', 'inherit'] });
  /** @type {typeof import('../libs/sdk/src/index')} */
  const { HotelClient } = require(path.join(ROOT, 'dist/libs/sdk'));

  current = 'key';
  const { key, origin } = sandboxKey();
  const hotel = new HotelClient({
    baseUrl: BASE_URL,
    apiKey: key,
    onRetry: ({ attempt, delayMs, error }) => log(`attempt ${attempt} failed (${'status' in error ? error.status : ''} ${error.code}); retrying in ${delayMs} ms`),
  });
  if (!hotel.isSandbox) throw new Error('HOTEL_API_KEY is not a sandbox key (hb_test_…): this example books a test stay only');
  process.stdout.write(`Booking a sandbox stay at ${BASE_URL} with the SDK (key: ${origin})\n\n`);

  current = 'identity';
  const me = await hotel.getIdentity();
  print('identity', `client ${me.client_id}, ${me.is_sandbox ? 'sandbox key: bookings are tests and move no money' : 'live key'}`);

  current = 'places';
  const { results: places } = await hotel.searchPlaces({ text_query: 'paris', limit: 1 });
  print('places', `"paris" -> ${places[0].formatted_address} (${places[0].place_id})`);

  current = 'search';
  const stay = { check_in: day(30), check_out: day(32), rooms: [{ adults: 2, children: 0, children_ages: [] }] };
  let polls = 0;
  const search = await hotel.searchUntilComplete({ place_id: places[0].place_id, ...stay }, { onPoll: (_, n) => (polls = n) });
  print('search', `${stay.check_in} to ${stay.check_out}, 2 adults: ${search.results.length} hotels, session ${search.session_id}, complete after ${polls} answer(s)`);

  current = 'hotel rates';
  const found = search.results[0].hotel;
  const rates = await hotel.hotelRatesUntilComplete({ hotel_id: found.id, session_id: search.session_id });
  const rate = rates.rates.find((candidate) => candidate.cancellation_policy === 'Refundable') ?? rates.rates[0];
  print('hotel rates', `${rates.hotel.name} (${rates.hotel.stars} stars): ${rates.rates.length} rates; chosen ${rate.rooms[0].name}, ${rate.rooms[0].board}, ${rate.cancellation_policy}, ${money(rate.price_chargeable, rate.price_currency)}`);

  current = 'prebook';
  const rateRef = { hotel_id: found.id, session_id: search.session_id, rate_id: rate.id, payment_method: /** @type {const} */ ('account') };
  const prebook = await hotel.prebookRate(rateRef);
  print('prebook', `${prebook.prebook_id}: ${money(prebook.rate.price_chargeable, prebook.rate.price_currency)}${prebook.price_changed ? ` (was ${prebook.previous_price_chargeable})` : ', price unchanged'}, held until ${prebook.expires_at}`);

  current = 'book';
  const clientReference = `SDK-EXAMPLE-${Date.now()}`;
  const booking = await hotel.bookRate(rateRef, {
    rooms: [{ lead_first_name: 'Ada', lead_last_name: 'Lovelace' }],
    email: 'ada@example.com',
    phone: '+44 20 7946 0000',
    client_reference: clientReference,
  });
  print('book', `booking ${booking.id} ${booking.status}, references ${booking.booking_reference.join(', ')}, ${money(booking.price_chargeable, booking.price_currency)}, sandbox: ${booking.is_sandbox} (idempotency_key generated by the SDK)`);

  current = 'voucher';
  // A booking has its voucher once it is confirmed (a sandbox booking is, unless its scenario says otherwise).
  const voucherUrl = booking.voucher_url;
  if (voucherUrl === null) throw new Error(`booking ${booking.id} is ${booking.status}: it has no voucher`);
  const pdf = await hotel.getVoucher(voucherUrl);
  const isPdf = Buffer.from(pdf.subarray(0, 5)).toString() === '%PDF-';
  if (!isPdf) throw new Error('the voucher is not a PDF');
  print('voucher', `PDF of ${pdf.length} bytes from ${voucherUrl.split('?')[0]}?expires=…&signature=…`);

  current = 'precancel';
  const precancel = await hotel.previewCancellation(booking.id);
  print('precancel', `cancelling now costs ${money(precancel.price_cancellation_penalty, precancel.price_currency)}`);

  current = 'cancel';
  const cancelled = await hotel.cancelBooking(booking.id);
  print('cancel', `cancelled: ${cancelled.cancelled}, reference ${cancelled.cancellation_reference}`);

  current = 'list';
  const listed = await hotel.listBookings({ client_reference: clientReference });
  print('list', `GET /book?client_reference=${clientReference}: ${listed.total} booking, status ${listed.data[0].status}`);
  if (listed.data[0].status !== 'cancelled') throw new Error(`the booking is ${listed.data[0].status}, not cancelled`);
  process.stdout.write('\nDone: a sandbox stay booked, its voucher read and the booking cancelled.\n');
}

main().catch((error) => {
  const details = error.requestId ? ` [${error.name} ${error.status ?? ''} ${error.code}, request id ${error.requestId}]` : '';
  process.stderr.write(`\nFAILED at ${current}: ${error.message}${details}\n`);
  deleteMadeClient();
  process.exit(1);
});
