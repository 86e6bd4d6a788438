// The adapter's contract with Hotelbeds, held against the vendor's documentation examples
// (fixtures/): for each operation the client must send exactly the documented request
// (method, path, query, headers, body) and read the documented answer into its types.
import { createHash } from 'node:crypto';
import { HotelbedsClient, HotelbedsError } from '../src';
import type { AvailabilityRQ, BookingRQ, CheckRateRQ } from '../src';
import { errorFixture, fixture, FixtureRequest, HotelbedsStandIn, ReceivedRequest } from './stand-in';

const API_KEY = 'docs-example-key';
const SECRET = 'docs-example-secret';

let standIn: HotelbedsStandIn;
let client: HotelbedsClient;

beforeAll(async () => {
  standIn = await HotelbedsStandIn.start({ apiKey: API_KEY, secret: SECRET });
  client = new HotelbedsClient({ baseUrl: standIn.url, apiKey: API_KEY, secret: SECRET, retry: { baseDelayMs: 1, maxDelayMs: 5 } });
});

afterAll(async () => {
  client.close();
  await standIn.close();
});

afterEach(() => standIn.answerFixtures());

function lastRequest(): ReceivedRequest {
  const request = standIn.requests.at(-1);
  if (!request) throw new Error('the stand-in received nothing');
  return request;
}

/** The request the stand-in received is the documented one, headers included. */
function expectDocumentedRequest(received: ReceivedRequest, documented: FixtureRequest): void {
  expect({ method: received.method, path: received.path, query: received.query, body: received.body }).toEqual({
    method: documented.method,
    path: documented.path,
    query: documented.query,
    body: documented.body ?? undefined,
  });
  expect(received.headers['api-key']).toBe(API_KEY);
  const seconds = Math.floor(Date.now() / 1000);
  const signatures = [seconds - 1, seconds].map((t) => createHash('sha256').update(`${API_KEY}${SECRET}${t}`).digest('hex'));
  expect(signatures).toContain(received.headers['x-signature']);
  expect(received.headers.accept).toBe('application/json');
  expect(received.headers['accept-encoding']).toBe('gzip');
  if (documented.body) expect(received.headers['content-type']).toBe('application/json');
  else expect(received.headers['content-type']).toBeUndefined();
}

describe('Hotelbeds contract: documented requests and answers', () => {
  it('availability by hotel codes', async () => {
    const { request } = fixture('availability');
    const answer = await client.availability(request.body as AvailabilityRQ);
    expectDocumentedRequest(lastRequest(), request);

    expect(answer.hotels.total).toBe(1);
    expect(answer.hotels.checkIn).toBe('2021-06-15');
    const [hotel] = answer.hotels.hotels ?? [];
    expect(hotel).toMatchObject({ code: 3424, name: 'As Americas', categoryCode: '4EST', zoneCode: 60, latitude: '40.6444523509645', currency: 'EUR' });
    const rate = hotel.rooms?.[0].rates?.[0];
    expect(rate).toEqual({
      rateKey: '20210615|20210616|W|59|3424|DBL.ST|ID_B2B_26|BB||1~2~0||N@05~~2608a~-321744190~N~~~C7AA6D2F0EC744F159074087674900AAUS0000002000000000721b76',
      rateClass: 'NOR',
      rateType: 'RECHECK',
      net: '118.27',
      allotment: 5,
      paymentType: 'AT_WEB',
      packaging: false,
      boardCode: 'BB',
      boardName: 'BED AND BREAKFAST',
      cancellationPolicies: [{ amount: '118.27', from: '2021-06-13T23:59:00+01:00' }],
      rooms: 1,
      adults: 2,
      children: 0,
    });
    // A field the types do not name (exclusiveDeal) is dropped, not passed on.
    expect(hotel).not.toHaveProperty('exclusiveDeal');
  });

  it('CheckRate of a rate key', async () => {
    const { request } = fixture('checkrate');
    const answer = await client.checkRate(request.body as CheckRateRQ);
    expectDocumentedRequest(lastRequest(), request);

    expect(answer.hotel).toMatchObject({ code: 1533, name: 'THB Mirador', checkIn: '2019-06-15', checkOut: '2019-06-16', totalNet: '357.90', currency: 'EUR' });
    const rate = answer.hotel.rooms?.[0].rates?.[0];
    expect(rate).toMatchObject({ rateType: 'BOOKABLE', net: '357.90', paymentType: 'AT_WEB', boardCode: 'RO', rooms: 2, adults: 2, children: 0 });
    expect(rate?.rateComments).toContain('Estimated total amount of taxes & fees');
  });

  it('booking confirmation', async () => {
    const { request } = fixture('booking');
    const answer = await client.book(request.body as BookingRQ);
    expectDocumentedRequest(lastRequest(), request);

    expect(answer.booking).toMatchObject({
      reference: '52-1274418',
      clientReference: 'INTEGRATIONAGENCY',
      creationDate: '2017-08-31',
      status: 'CONFIRMED',
      modificationPolicies: { cancellation: true, modification: true },
      holder: { name: 'INTEGRATIONTESTFIRSTNAME', surname: 'INTEGRATIONTESTLASTNAME' },
      remark: 'Booking remarks are to be written here.',
      totalNet: '302.26',
      pendingAmount: '302.26',
      currency: 'EUR',
    });
    expect(answer.booking.hotel).toMatchObject({ code: 1, name: 'Villa Dorada', checkIn: '2017-09-15', checkOut: '2017-09-20' });
    expect(answer.booking.hotel?.rooms?.[0]).toMatchObject({ status: 'CONFIRMED', id: 1, paxes: [{ roomId: 1, type: 'AD' }, { roomId: 1, type: 'AD' }] });
  });

  it('booking detail by reference', async () => {
    const { request } = fixture('booking-detail');
    const answer = await client.bookingDetail('52-1274418');
    expectDocumentedRequest(lastRequest(), request);
    expect(answer.booking).toMatchObject({ reference: '52-1274418', status: 'CONFIRMED', totalNet: '302.26' });
  });

  it('booking list, and a booking found by its client reference', async () => {
    const { request } = fixture('booking-list');
    const page = await client.bookingList({
      start: '2017-08-31',
      end: '2017-08-31',
      from: 1,
      to: 25,
      filterType: 'CREATION',
      status: 'ALL',
      clientReference: 'IntegrationAgency',
    });
    expectDocumentedRequest(lastRequest(), request);
    expect(page.bookings).toMatchObject({ from: 1, to: 25, total: 1 });
    expect(page.bookings.bookings?.[0]).toMatchObject({ reference: '52-1274418', clientReference: 'INTEGRATIONAGENCY', status: 'CONFIRMED' });

    // The vendor answers the reference in upper case: it still matches.
    const found = await client.findByClientReference('IntegrationAgency', { start: '2017-08-31', end: '2017-08-31' });
    expectDocumentedRequest(lastRequest(), request);
    expect(found.map((booking) => booking.reference)).toEqual(['52-1274418']);
    expect(await client.findByClientReference('SomeoneElse', { start: '2017-08-31', end: '2017-08-31' })).toEqual([]);
  });

  it('cancellation, and its simulation', async () => {
    const { request } = fixture('cancellation');
    const answer = await client.cancel('52-1274418');
    expectDocumentedRequest(lastRequest(), request);
    expect(answer.booking).toMatchObject({ reference: '52-1274418', status: 'CANCELLED', cancellationReference: '52-1274418' });
    expect(answer.booking.hotel?.cancellationAmount).toBe('0');

    await client.simulateCancellation('52-1274418');
    expectDocumentedRequest(lastRequest(), { ...request, query: { cancellationFlag: 'SIMULATION' } });
  });

  it('Content API hotels, paged by from/to', async () => {
    const { request } = fixture('content-hotels');
    const page = await client.contentHotels({ fields: 'all', language: 'ENG', useSecondaryLanguage: false, from: 1, to: 100 });
    expectDocumentedRequest(lastRequest(), request);
    expect(page).toMatchObject({ from: 1, to: 100, total: 1 });
    expect(page.hotels?.[0]).toMatchObject({
      code: 1,
      name: { content: 'Villa Dorada' },
      destinationCode: 'SAL',
      coordinates: { longitude: '1.14', latitude: '41.068' },
      boardCodes: ['RO', 'BB'],
    });

    await client.contentHotels({ fields: ['name', 'coordinates'], codes: [1, 2, 3], language: 'ENG' });
    expect(lastRequest().query).toEqual({ fields: 'name,coordinates', codes: '1,2,3', language: 'ENG', from: '1', to: '100' });

    const pages = [];
    for await (const each of client.contentHotelPages({ fields: 'all', language: 'ENG' }, 1000)) pages.push(each);
    expect(pages).toHaveLength(1);
    expect(lastRequest().query).toMatchObject({ from: '1', to: '1000' });
  });
});

describe('Hotelbeds contract: documented error answers', () => {
  const send = (name: Parameters<typeof errorFixture>[0]) => standIn.handle((request, response) => standIn.replyError(request, response, errorFixture(name)));
  const checkRate = () => client.checkRate(fixture('checkrate').request.body as CheckRateRQ).then(
    () => {
      throw new Error('expected a HotelbedsError');
    },
    (error: unknown) => error as HotelbedsError,
  );

  it('INVALID_DATA is an invalid request, with the vendor code and message', async () => {
    send('invalidData');
    const error = await checkRate();
    expect(error).toBeInstanceOf(HotelbedsError);
    expect(error).toMatchObject({ kind: 'invalid', code: 'INVALID_REQUEST', status: 400, vendorCode: 'INVALID_DATA', vendorMessage: 'The check-in date cannot be in the past' });
  });

  it('a PRODUCT_ERROR is a refusal: a rate gone, or a price changed', async () => {
    send('productRateGone');
    expect(await checkRate()).toMatchObject({ kind: 'refused', code: 'RATE_NOT_AVAILABLE', vendorCode: 'PRODUCT_ERROR', vendorMessage: 'Insufficient allotment', attempts: 1 });
    send('productPriceChanged');
    expect(await checkRate()).toMatchObject({ kind: 'refused', code: 'PRICE_CHANGED', vendorCode: 'PRODUCT_ERROR' });
  });

  it('a SYSTEM_ERROR 500 is unavailable', async () => {
    send('systemError');
    expect(await checkRate()).toMatchObject({ kind: 'unavailable', code: 'VENDOR_FAILURE', status: 500, vendorCode: 'SYSTEM_ERROR' });
  });

  it("the gateway's throttle (403 Developer Over Qps) is retried; its daily quota is not", async () => {
    send('overQps');
    const throttled = await checkRate();
    expect(throttled).toMatchObject({ kind: 'unavailable', code: 'RATE_LIMITED', status: 403, vendorCode: 'ERR_403_DEVELOPER_OVER_QPS', retryAfterMs: 1000 });
    expect(throttled.attempts).toBeGreaterThan(1);

    send('overRate');
    expect(await checkRate()).toMatchObject({ kind: 'unavailable', code: 'QUOTA_EXCEEDED', vendorCode: 'ERR_403_DEVELOPER_OVER_RATE', attempts: 1 });
  }, 15_000);

  it('a 2xx carrying an error element is not a success', async () => {
    standIn.handle((request, response) => standIn.reply(request, response, 200, { auditData: {}, error: { code: 'INVALID_DATA', message: 'Rate key is not valid' } }));
    expect(await checkRate()).toMatchObject({ kind: 'invalid', status: 200, vendorCode: 'INVALID_DATA', vendorMessage: 'Rate key is not valid' });
  });
});
