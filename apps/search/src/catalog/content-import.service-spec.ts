import { ServerResponse } from 'node:http';
import { Hotel, IMPORTED_HOTEL_ID_BASE, Suppliers, distanceMeters, findPlace, hotelsForPlace } from '@hotel/inventory';
import type { ContentHotel } from '@hotel/hotelbeds';
import { ServiceHarness } from '@hotel/testing';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the Hotelbeds stand-in of the client's own tests: the vendor these tests import from
import { HotelbedsStandIn, ReceivedRequest } from '../../../../libs/hotelbeds/test/stand-in';
import { startSearchHarness } from '../../test/search-fixtures';
import { SearchEnv } from '../search.env';
import { ContentImportService } from './content-import.service';
import { HotelCatalog } from './hotel-catalog';
import { ScheduledContentImport } from './scheduled-content-import';

// Service tier: the search service's content import from a Hotelbeds stand-in over HTTP
// (the vendor's Content API, signed and gzipped), into a fresh PostgreSQL database.

const API_KEY = 'content-test-key';
const SECRET = 'content-test-secret';
const PARIS = findPlace('gn:2988507')!;
const LYON = findPlace('gn:2996944')!;

/** A point `meters` north of a hotel. */
const northOf = (hotel: { lat: number; long: number }, meters: number) => ({ latitude: String(hotel.lat + meters / 111_000), longitude: String(hotel.long) });

describe('the content import (service tier: a Hotelbeds stand-in over HTTP, real PostgreSQL)', () => {
  let standIn: HotelbedsStandIn;
  let harness: ServiceHarness<SearchEnv>;
  let imports: ContentImportService;
  let catalog: HotelCatalog;
  const parisHotels = hotelsForPlace(PARIS.placeId)!;
  const [twin, distant] = parisHotels;
  /** What the vendor's Content API answers, by destination code (its cities' GeoNames ids here). */
  let portfolio: Record<string, ContentHotel[]>;
  let failDestination: string | undefined;

  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => harness.dataSource.query(text, params) as Promise<T[]>;

  function answerContent(request: ReceivedRequest, response: ServerResponse): void {
    if (request.path !== '/hotel-content-api/1.0/hotels') return standIn.replyText(request, response, 404, 'not found');
    const destination = request.query.destinationCode;
    if (destination === failDestination) return standIn.reply(request, response, 500, { error: { code: 'SYSTEM_ERROR', message: 'System error' } });
    const changedSince = request.query.lastUpdateTime;
    const hotels = (portfolio[destination] ?? []).filter((hotel) => !changedSince || (hotel.lastUpdate ?? '') >= changedSince);
    const from = Number(request.query.from);
    const to = Number(request.query.to);
    standIn.reply(request, response, 200, { from, to, total: hotels.length, hotels: hotels.slice(from - 1, to) });
  }

  beforeAll(async () => {
    standIn = await HotelbedsStandIn.start({ apiKey: API_KEY, secret: SECRET });
    standIn.handle(answerContent);
    portfolio = {
      [String(PARIS.geonameId)]: [
        // The platform's own hotel, named the vendor's way, 60 m off.
        { code: 501, name: { content: twin.name.toUpperCase().replace(/^HOTEL /, 'Hôtel ') }, coordinates: northOf(twin, 60), categoryCode: '4EST', lastUpdate: '2026-01-10' },
        // The same name 400 m away: another hotel.
        { code: 502, name: { content: distant.name }, coordinates: northOf(distant, 400), lastUpdate: '2026-01-10' },
        // No coordinates: nothing to place it by.
        { code: 503, name: { content: 'Nowhere Inn' }, lastUpdate: '2026-01-10' },
        // Only the vendor has it.
        {
          code: 504,
          name: { content: 'Hôtel Lumière' },
          description: { content: 'A quiet hotel by the river.', languageCode: 'ENG' },
          coordinates: { latitude: String(PARIS.lat + 0.001), longitude: String(PARIS.long) },
          categoryCode: 'H3_5',
          address: { content: '1 Quai Test' },
          rooms: [{ roomCode: 'DBL.ST', maxAdults: 2 }],
          images: [{ path: 'lumiere/1.jpg', visualOrder: 1 }],
          giataCode: 9001,
          lastUpdate: '2026-01-10',
        },
        // Another vendor knows it by GIATA code 9002.
        { code: 505, name: { content: 'Somewhere Else Entirely' }, coordinates: { latitude: String(PARIS.lat - 0.002), longitude: String(PARIS.long) }, giataCode: 9002, lastUpdate: '2026-01-10' },
      ],
      [String(LYON.geonameId)]: [{ code: 601, name: { content: 'Lyon Vendor Hotel' }, coordinates: { latitude: String(LYON.lat), longitude: String(LYON.long + 0.001) }, lastUpdate: '2026-01-10' }],
    };
    harness = await startSearchHarness({
      env: {
        HOTELBEDS_API_KEY: API_KEY,
        HOTELBEDS_SECRET: SECRET,
        HOTELBEDS_BASE_URL: standIn.url,
        HOTELBEDS_IMAGE_BASE_URL: 'https://img.test/',
        CONTENT_IMPORT_DESTINATIONS: `${PARIS.geonameId},${LYON.geonameId}`,
        LOG_LEVEL: 'fatal',
      },
    });
    imports = harness.get(ContentImportService);
    catalog = harness.get(HotelCatalog);
    // The import at start ran (or runs) in the background: stopped and looked at, then forgotten so each test sees its own runs.
    await harness.get(ScheduledContentImport).onModuleDestroy();
  });

  afterAll(async () => {
    await harness?.close();
    await standIn?.close();
  });

  async function forget(): Promise<void> {
    await sql('DELETE FROM search.vendor_hotel_codes');
    await sql('DELETE FROM search.catalog_hotels');
    await sql('DELETE FROM search.content_imports');
    await sql('DELETE FROM search.job_leases');
    catalog.forget();
  }

  it('ran at start, and is not due again before CONTENT_REFRESH_H hours', async () => {
    expect(await sql(`SELECT trigger, status FROM search.content_imports`)).toEqual([{ trigger: 'start', status: 'completed' }]);
    expect(await imports.due('hotelbeds')).toBeNull();
    await sql(`UPDATE search.content_imports SET started_at = now() - interval '25 hours'`);
    expect(await imports.due('hotelbeds')).toBe('schedule');
  });

  it('matches by name within 150 m and by GIATA code, adds what the platform lacks, skips what has no place; a city search finds the new hotels', async () => {
    await forget();
    // Another vendor's code for Lyon's first hotel, with GIATA code 9002.
    const lyonHotel = hotelsForPlace(LYON.placeId)![0];
    await sql(`INSERT INTO search.vendor_hotel_codes (vendor, code, hotel_id, giata_code, matched_by, name, lat, long) VALUES ('other', 1, $1, 9002, 'new', 'x', 0, 0)`, [lyonHotel.id]);
    const [report] = await imports.runNow('hotelbeds', false);
    expect(report).toMatchObject({ status: 'completed', trigger: 'command', updatedSince: null, pages: 2, hotels: 6, known: 0, matchedByGiata: 1, matchedByName: 1, created: 3, skipped: 1, error: null });
    const codes = await sql<{ code: string; hotel_id: number; matched_by: string }>(`SELECT code, hotel_id, matched_by FROM search.vendor_hotel_codes WHERE vendor = 'hotelbeds' ORDER BY code`);
    expect(codes.map((row) => [Number(row.code), row.matched_by])).toEqual([
      [501, 'name_and_distance'],
      [502, 'new'],
      [504, 'new'],
      [505, 'giata_code'],
      [601, 'new'],
    ]);
    expect(codes[0].hotel_id).toBe(twin.id);
    expect(codes[3].hotel_id).toBe(lyonHotel.id);
    for (const row of [codes[1], codes[2], codes[4]]) expect(row.hotel_id).toBeGreaterThanOrEqual(IMPORTED_HOTEL_ID_BASE);

    const lumiereId = codes[2].hotel_id;
    const lumiere = (await catalog.hotel(lumiereId))!;
    expect(lumiere).toMatchObject({ name: 'Hôtel Lumière', stars: 3.5, street: '1 Quai Test', images: ['https://img.test/lumiere/1.jpg'], descriptions: { en: 'A quiet hotel by the river.' } });
    expect(lumiere.roomTypes.map((room) => room.roomId)).toEqual([2]);
    const paris = (await catalog.forPlace(PARIS.placeId, 5000))!.map((hotel: Hotel) => hotel.id);
    expect(paris).toEqual(expect.arrayContaining([twin.id, lumiereId, codes[1].hotel_id]));
    expect(paris).not.toContain(codes[4].hotel_id);
    // A country's biggest cities first, each with the hotels nearest it: Paris's, then Marseille's, then Lyon's.
    expect((await catalog.forPlace('cc:FR', 400))!.map((hotel) => hotel.id)).toEqual(expect.arrayContaining([lumiereId, codes[4].hotel_id]));
    const near = await catalog.near(lumiere.lat, lumiere.long, 50);
    expect(near[0].id).toBe(lumiereId);
    expect(distanceMeters(near[0].lat, near[0].long, lumiere.lat, lumiere.long)).toBe(0);
    // The vendor is asked by its own codes.
    expect(await catalog.codesOf('hotelbeds', [twin.id, lumiereId, distant.id])).toEqual(new Map([[twin.id, 501], [lumiereId, 504]]));
  });

  it('again: known codes keep their hotel and refresh the content the vendor gave; only what changed since the day before the last import is asked for', async () => {
    const before = await sql<{ code: string; hotel_id: number }>(`SELECT code, hotel_id FROM search.vendor_hotel_codes WHERE vendor = 'hotelbeds' ORDER BY code`);
    const lumiere = portfolio[String(PARIS.geonameId)].find((hotel) => hotel.code === 504)!;
    lumiere.name = { content: 'Hôtel Lumière & Spa' };
    lumiere.lastUpdate = '2999-01-01';
    const asked = standIn.requests.length;
    const [report] = await imports.runNow(undefined, false);
    expect(report).toMatchObject({ status: 'completed', hotels: 1, known: 1, created: 0 });
    expect(report.updatedSince).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(standIn.requests.slice(asked).every((request) => request.query.lastUpdateTime === report.updatedSince)).toBe(true);
    expect(await sql(`SELECT code, hotel_id FROM search.vendor_hotel_codes WHERE vendor = 'hotelbeds' ORDER BY code`)).toEqual(before);
    catalog.forget();
    const id = before.find((row) => Number(row.code) === 504)!.hotel_id;
    expect((await catalog.hotel(id))!.name).toBe('Hôtel Lumière & Spa');
  });

  it('a vendor failing on a later destination: the import fails, what came before stays; a full import then completes', async () => {
    await forget();
    failDestination = String(LYON.geonameId);
    try {
      const [failed] = await imports.runNow('hotelbeds', true);
      expect(failed).toMatchObject({ status: 'failed', pages: 1, hotels: 5, created: 3 });
      expect(failed.error).toContain('500');
      expect(await sql(`SELECT count(*)::int AS codes FROM search.vendor_hotel_codes WHERE vendor = 'hotelbeds'`)).toEqual([{ codes: 4 }]);
      // Not completed: it is still due.
      expect(await imports.due('hotelbeds')).toBe('start');
    } finally {
      failDestination = undefined;
    }
    const [again] = await imports.runNow('hotelbeds', true);
    expect(again).toMatchObject({ status: 'completed', hotels: 6, known: 4, created: 1 });
  });

  it('two replicas at once: one imports, the other finds the lease held', async () => {
    await forget();
    const supplier = imports.contentVendors()[0];
    const other = new ContentImportService(harness.dataSource, harness.get(Suppliers), catalog, harness.env, 'replica-b');
    const [first, second] = await Promise.all([imports.runLeased(supplier, 'schedule'), other.runLeased(supplier, 'schedule')]);
    expect([first, second].filter((report) => report !== null)).toHaveLength(1);
    expect(await sql(`SELECT count(*)::int AS runs FROM search.content_imports`)).toEqual([{ runs: 1 }]);
    // While one holds it, the command says so rather than importing twice.
    await sql(`INSERT INTO search.job_leases (job, taken_until, holder) VALUES ('content-import:hotelbeds', now() + interval '1 minute', 'replica-b') ON CONFLICT (job) DO UPDATE SET taken_until = EXCLUDED.taken_until, holder = EXCLUDED.holder`);
    await expect(imports.runNow('hotelbeds', false)).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(imports.runNow('atlas', false)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
