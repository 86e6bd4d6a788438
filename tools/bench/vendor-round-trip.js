// @ts-check
// What one round trip to a vendor costs the platform: the adapter the search and rates
// services use (HotelbedsSupplier over HotelbedsClient, from dist/) asks the simulator (atlas,
// at the answer time the benchmark gives it) for one hotel's availability, a CheckRate and a
// city's availability, one call at a time.
// The CPU is this process's own (the client's side); the simulator's is not counted.
const path = require('node:path');
const { ROOT } = require('../lib/workspace');

const CALLS = 200;

/**
 * CPU per call (ms) and the median wall time of `calls` calls one after another.
 * @param {number} calls
 * @param {(i: number) => Promise<unknown>} call
 */
async function timed(calls, call) {
  for (let i = 0; i < 20; i++) await call(i); // warm-up: connections, JIT
  /** @type {number[]} */
  const walls = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < calls; i++) {
    const start = performance.now();
    await call(i);
    walls.push(performance.now() - start);
  }
  const used = process.cpuUsage(cpu);
  walls.sort((a, b) => a - b);
  return { cpuMs: (used.user + used.system) / 1000 / calls, p50Ms: walls[Math.floor(calls / 2)] };
}

/**
 * `simulatorUrl`: the simulator `npm start` runs; `credentials`: atlas's and the sandbox desk's there ({ atlas, sandbox }: { apiKey, secret }).
 * @param {string} simulatorUrl
 * @param {Record<'atlas' | 'sandbox', { apiKey: string, secret: string }>} credentials
 */
async function vendorRoundTripCost(simulatorUrl, credentials) {
  require('reflect-metadata');
  /** @type {typeof import('../../libs/hotelbeds/src/index')} */
  const { HotelbedsClient, HotelbedsSupplier } = require(path.join(ROOT, 'dist/libs/hotelbeds/src/index.js'));
  /** @type {typeof import('../../libs/inventory/src/index')} */
  const { findPlace, hotelsForPlace, priceEpoch } = require(path.join(ROOT, 'dist/libs/inventory/src/index.js'));
  const client = new HotelbedsClient({ baseUrl: `${simulatorUrl}/atlas`, apiKey: credentials.atlas.apiKey, secret: credentials.atlas.secret });
  const desk = new HotelbedsClient({ baseUrl: `${simulatorUrl}/sandbox`, apiKey: credentials.sandbox.apiKey, secret: credentials.sandbox.secret });
  try {
    // The desk is asked nothing here (live calls only), but every supplier has one.
    const supplier = new HotelbedsSupplier({ code: 'atlas', name: 'Atlas Beds', client, sandboxDesk: { client: desk, secret: credentials.sandbox.secret } });
    // Paris: in the gazetteer, with hotels.
    const hotels = hotelsForPlace(findPlace('gn:2988507')?.placeId ?? 'gn:2988507', 300);
    if (!hotels) throw new Error('Paris (gn:2988507) is not in the inventory');
    /** @param {number} offset days from today */
    const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    /** @param {number} i */
    const stay = (i) => ({ check_in: day(30 + (i % 200)), check_out: day(32 + (i % 200)), rooms: [{ adults: 2, children: 0, children_ages: [] }] });
    const request = { includeMemberRates: true, context: { epoch: priceEpoch(), issuedAt: new Date() } };
    // A hotel the vendor answers with offers, and one of them to recheck.
    let found = null;
    for (const hotel of hotels) {
      const [offers] = await supplier.availability([hotel], stay(0), request);
      if (offers.length) {
        found = { hotel, offer: offers[0] };
        break;
      }
    }
    if (!found) return null;
    const availability = await timed(CALLS, (i) => supplier.availability([found.hotel], stay(i), request));
    const checkRate = await timed(CALLS, () => supplier.recheck(found.hotel, found.offer.key, stay(0)));
    const city = await timed(20, (i) => supplier.availability(hotels, stay(i), request));
    return { availability, checkRate, city: { ...city, hotels: hotels.length } };
  } finally {
    client.close();
    desk.close();
  }
}

module.exports = { vendorRoundTripCost };
