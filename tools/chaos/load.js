// @ts-check
// The load of `npm run chaos`: loops that book as integrators do (V1 search → hotel
// rates → prebook → book, or V2 rates → prebook → book), on account and by card,
// some with promo codes, every book with an idempotency_key and a client_reference,
// retried with the same key on a 5xx, a timeout or a lost connection; some loops
// cancel confirmed bookings (retried on 503, sometimes twice at once). Every HTTP
// answer is recorded (Recorder), and what each booking and cancellation was
// answered is kept for the checks (Answers).
const { closeIdleConnections, request } = require('../lib/https');

// Cities with hotels all over the world (GeoNames ids).
const CITIES = [2988507, 2643743, 3117735, 3169070, 2950159, 2759794, 2761369, 3067696, 2267057, 3128760, 5128581, 1850147, 2147714, 3448439, 524901, 1275339];
// One stay every loop books now and then (cheapest room of the first hotel): rooms run out, bookings race for them.
const HOT = { place: 2988507, offsetDays: 45, nights: 2 };
const GUEST = { lead_first_name: 'Ada', lead_last_name: 'Lovelace' };
const CONTACT = { email: 'chaos@example.com', phone: '+44 20 7946 0000' };
const RETRIES = 6;
/** What the saga records as a booking's failure: such an answer means the booking (if one was made) failed. */
const BUSINESS_FAILURES = ['INSUFFICIENT_FUNDS', 'PAYMENT_DECLINED', 'PAYMENT_INCOMPLETE', 'RATE_NOT_AVAILABLE', 'PROMO_CODE_INVALID', 'SUPPLIER_ERROR'];

/** @typedef {import('../lib/https').Answer} Answer */
/** @typedef {import('./platform').ChaosClient} ChaosClient */
/** @typedef {{ (): number, pick<T>(items: T[]): T, int(min: number, max: number): number }} Rng */
/**
 * One HTTP answer as a round records it (status 0: none, `code` then says why).
 * @typedef {{ op: string, startedAt: number, endedAt: number, status: number, code: string | null, message: string | null, retryAfter: string | null }} HttpRecord
 */
/** @typedef {{ status: number, code: string | null, id: number | null, bookingStatus: string | null }} BookAnswer */
/** @typedef {{ clientId: number, key: string, reference: string, answers: BookAnswer[] }} BookingEntry */
/** @typedef {{ clientId: number, bookingId: number, status: number, code: string | null, cancelled: boolean | null }} CancellationAnswer */
/** @typedef {{ hot: boolean, place: number, check_in: string, check_out: string, rooms: number }} Stay */
/** @typedef {{ idempotency_key: string, client_reference: string } & Record<string, unknown>} BookBody */
/** @typedef {{ op: string, path: string, body: Record<string, unknown> }} Prebooked */

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** @param {number} offset days from today */
const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/**
 * A small seeded generator (mulberry32), so a run's choices can be repeated with --seed.
 * @param {number} seed
 * @returns {Rng}
 */
function random(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  /**
   * @template T
   * @param {T[]} items
   */
  next.pick = (items) => items[Math.floor(next() * items.length)];
  /**
   * @param {number} min
   * @param {number} max
   */
  next.int = (min, max) => min + Math.floor(next() * (max - min + 1));
  return next;
}

/**
 * A 5xx or no answer at all: an integrator sends the same request again.
 * @param {Answer} answer
 */
const retryable = (answer) => answer.status === 0 || answer.status >= 500 || answer.status === 429;

/** Every HTTP answer of a round, with when it was asked and answered. */
class Recorder {
  constructor() {
    /** @type {HttpRecord[]} */
    this.records = [];
  }

  /**
   * @param {string} op
   * @param {string} base
   * @param {string} method
   * @param {string} pathName
   * @param {import('../lib/https').RequestOptions} options
   * @returns {Promise<Answer>}
   */
  async call(op, base, method, pathName, options) {
    const startedAt = Date.now();
    try {
      const response = await request(base, method, pathName, options);
      const code = response.status >= 400 ? (response.body?.code ?? 'NO_CODE') : null;
      const message = response.status >= 400 ? (response.body?.message ?? null) : null;
      this.records.push({ op, startedAt, endedAt: Date.now(), status: response.status, code, message, retryAfter: response.headers['retry-after'] ?? null });
      return response;
    } catch (error) {
      const code = error.code ?? 'TRANSPORT_ERROR';
      this.records.push({ op, startedAt, endedAt: Date.now(), status: 0, code, message: error.message ?? null, retryAfter: null });
      return { status: 0, headers: {}, body: { code } };
    }
  }
}

/** What the platform answered each booking (by idempotency key) and each cancellation. */
class Answers {
  constructor() {
    /** By idempotency key. @type {Map<string, BookingEntry>} */
    this.bookings = new Map();
    /** @type {CancellationAnswer[]} */
    this.cancellations = [];
  }

  /**
   * @param {ChaosClient} client
   * @param {string} key
   * @param {string} reference
   * @param {Answer} answer
   */
  book(client, key, reference, answer) {
    const entry = this.bookings.get(key) ?? { clientId: client.client_id, key, reference, answers: [] };
    entry.answers.push({ status: answer.status, code: answer.body?.code ?? null, id: answer.body?.data?.id ?? null, bookingStatus: answer.body?.data?.status ?? null });
    this.bookings.set(key, entry);
  }

  /**
   * @param {ChaosClient} client
   * @param {number} bookingId
   * @param {Answer} answer
   */
  cancel(client, bookingId, answer) {
    this.cancellations.push({ clientId: client.client_id, bookingId, status: answer.status, code: answer.body?.code ?? null, cancelled: answer.body?.data?.cancelled ?? null });
  }
}

class Load {
  /**
   * @param {object} options
   * @param {string} options.gateway base URL
   * @param {ChaosClient[]} options.clients from the admin command (client_id, api_key, ...)
   * @param {string[]} options.promoCodes
   * @param {number} options.loops how many loops, spread over the clients
   * @param {number} options.seed
   * @param {string} options.runId in every idempotency key and client reference of the run
   */
  constructor({ gateway, clients, promoCodes, loops, seed, runId }) {
    this.gateway = gateway;
    this.clients = clients;
    this.promoCodes = promoCodes;
    this.loopCount = loops;
    this.seed = seed;
    this.runId = runId;
    this.answers = new Answers();
    // Confirmed bookings a loop may cancel, per client.
    /** @type {Map<number, number[]>} */
    this.cancellable = new Map(clients.map((client) => [client.client_id, []]));
    // Hotel ids seen in V1 searches per city, for V2 searches by hotel_ids.
    /** @type {Map<number, number[]>} */
    this.hotelIds = new Map();
    this.iterations = 0;
    this.round = 0;
    // Set by start() for each round.
    this.recorder = new Recorder();
    this.stopping = false;
    /** @type {Promise<unknown>} */
    this.running = Promise.resolve();
  }

  /**
   * Confirmed bookings of the client a loop may cancel (every client of the load has its list).
   * @param {ChaosClient} client
   */
  cancellableOf(client) {
    return /** @type {number[]} */ (this.cancellable.get(client.client_id));
  }

  /**
   * Starts the loops for a round; every answer goes to `recorder`.
   * @param {Recorder} recorder
   */
  start(recorder) {
    // Connections left idle since the last round are not reused: a race of the harness's, not a fault.
    closeIdleConnections();
    this.round += 1;
    this.recorder = recorder;
    this.stopping = false;
    this.running = Promise.all(
      Array.from({ length: this.loopCount }, (_, index) => this.loop(this.clients[index % this.clients.length], random(this.seed * 1000 + this.round * 100 + index), index)),
    );
  }

  /** No new bookings from now; resolves when every loop has finished what it was doing (retries included). */
  async stop() {
    this.stopping = true;
    await this.running;
  }

  /**
   * @param {string} op
   * @param {ChaosClient} client
   * @param {string} method
   * @param {string} pathName
   * @param {unknown} [json]
   */
  call(op, client, method, pathName, json) {
    return this.recorder.call(op, this.gateway, method, pathName, { headers: { authorization: `Bearer ${client.api_key}` }, json });
  }

  /**
   * @param {ChaosClient} client
   * @param {Rng} rng
   * @param {number} index
   */
  async loop(client, rng, index) {
    let n = 0;
    while (!this.stopping) {
      n += 1;
      this.iterations += 1;
      let ok = true;
      try {
        const pool = this.cancellableOf(client);
        if (pool.length && rng() < 0.2) await this.cancel(client, pool.splice(Math.floor(rng() * pool.length), 1)[0], rng);
        if (!this.stopping) ok = await this.bookOnce(client, rng, `${this.runId}-${client.client_id}-${this.round}-${index}-${n}`);
      } catch (error) {
        // A harness bug must not pass silently as a quiet loop.
        process.stderr.write(`[chaos] load loop ${index}: ${error.stack}\n`);
        ok = false;
      }
      // Think time; longer after a failure, so a dead gateway is not hammered in a tight loop.
      await sleep(ok ? rng.int(20, 80) : rng.int(250, 500));
    }
  }

  /**
   * @param {Rng} rng
   * @returns {Stay}
   */
  stay(rng) {
    if (rng() < 0.1) return { hot: true, place: HOT.place, check_in: day(HOT.offsetDays), check_out: day(HOT.offsetDays + HOT.nights), rooms: 1 };
    const offset = rng.int(20, 330);
    return { hot: false, place: rng.pick(CITIES), check_in: day(offset), check_out: day(offset + rng.int(1, 3)), rooms: rng() < 0.15 ? 2 : 1 };
  }

  /**
   * One search-to-book flow; false when it stopped on an error before booking.
   * @param {ChaosClient} client
   * @param {Rng} rng
   * @param {string} id
   */
  async bookOnce(client, rng, id) {
    const stay = this.stay(rng);
    const method = rng() < 0.55 ? 'account' : 'credit_card';
    const promo = rng() < 0.25 ? rng.pick(this.promoCodes) : null;
    const v2 = rng() < 0.25;
    const prebooked = v2 ? await this.prebookV2(client, rng, stay, method, promo) : await this.prebookV1(client, rng, stay, method, promo);
    if (!prebooked || this.stopping) return Boolean(prebooked);
    /** @type {BookBody} */
    const body = {
      ...prebooked.body,
      rooms: Array.from({ length: stay.rooms }, () => GUEST),
      ...CONTACT,
      client_reference: `ref-${id}`,
      idempotency_key: `idem-${id}`,
    };
    if (method === 'credit_card') {
      const year = String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0');
      Object.assign(body, {
        payment_token: rng() < 0.08 ? 'tok_declined' : 'tok_visa',
        payment_first_name: 'Ada',
        payment_last_name: 'Lovelace',
        payment_postal_code: 'N1 9GU',
        payment_expiration: `12/${year}`,
      });
    }
    const answer = await this.book(client, prebooked.op, prebooked.path, body);
    if (answer.status >= 200 && answer.status < 300 && answer.body.data.status === 'confirmed') this.cancellableOf(client).push(answer.body.data.id);
    return answer.status > 0 && answer.status < 500;
  }

  /**
   * @param {ChaosClient} client
   * @param {Rng} rng
   * @param {Stay} stay
   * @param {string} method
   * @param {string | null} promo
   * @returns {Promise<Prebooked | null>}
   */
  async prebookV1(client, rng, stay, method, promo) {
    const search = await this.call('search', client, 'POST', '/search', { place_id: `gn:${stay.place}`, check_in: stay.check_in, check_out: stay.check_out, rooms: this.occupancy(stay) });
    /** @type {{ hotel: { id: number } }[]} */
    const results = search.status === 200 ? search.body.data.results : [];
    if (!results.length) return null;
    this.hotelIds.set(stay.place, results.slice(0, 20).map((result) => result.hotel.id));
    const hotel = stay.hot ? results[0].hotel : rng.pick(results.slice(0, 15)).hotel;
    const session = search.body.data.session_id;
    const hotelRates = await this.call('hotel', client, 'GET', `/hotel/${hotel.id}/${session}`);
    /** @type {{ id: string }[]} */
    const rates = hotelRates.status === 200 ? hotelRates.body.data.rates : [];
    if (!rates.length) return null;
    const rate = stay.hot ? rates[0] : rng.pick(rates.slice(0, 4));
    const ratePath = `${hotel.id}/${session}/${rate.id}/${method}`;
    const prebook = await this.call('prebook', client, 'GET', `/prebook/${ratePath}${promo ? `?promo_code=${promo}` : ''}`);
    return prebook.status === 200 ? { op: 'book', path: `/book/${ratePath}`, body: {} } : null;
  }

  /**
   * @param {ChaosClient} client
   * @param {Rng} rng
   * @param {Stay} stay
   * @param {string} method
   * @param {string | null} promo
   * @returns {Promise<Prebooked | null>}
   */
  async prebookV2(client, rng, stay, method, promo) {
    const known = this.hotelIds.get(stay.place);
    const where = known && rng() < 0.5 ? { hotel_ids: known.slice(0, 10) } : { place_id: `gn:${stay.place}`, limit: 5 };
    const search = await this.call('v2_rates', client, 'POST', '/v2/rates', { ...where, check_in: stay.check_in, check_out: stay.check_out, rooms: this.occupancy(stay) });
    /** @type {{ id: string }[]} */
    const rates = search.status === 200 ? search.body.rates : [];
    if (!rates.length) return null;
    const rate = stay.hot ? rates[0] : rng.pick(rates.slice(0, 10));
    const prebook = await this.call('v2_prebook', client, 'POST', '/v2/prebook', { rate_id: rate.id, payment_method: method, ...(promo && { promo_code: promo }) });
    return prebook.status === 200 ? { op: 'v2_book', path: '/v2/book', body: { prebook_id: prebook.body.data.prebook_id } } : null;
  }

  /** @param {Stay} stay */
  occupancy(stay) {
    return Array.from({ length: stay.rooms }, () => ({ adults: 2, children: 0, children_ages: [] }));
  }

  /**
   * The same request (same idempotency key) until it has a 2xx or 4xx answer, or RETRIES attempts.
   * @param {ChaosClient} client
   * @param {string} op
   * @param {string} pathName
   * @param {BookBody} body
   */
  async book(client, op, pathName, body) {
    /** @type {Answer | undefined} */
    let answer;
    for (let attempt = 1; attempt <= RETRIES; attempt++) {
      answer = await this.call(op, client, 'POST', pathName, body);
      this.answers.book(client, body.idempotency_key, body.client_reference, answer);
      if (!retryable(answer)) break;
      await this.backoff(attempt, answer);
    }
    // (RETRIES ≥ 1: there is an answer.)
    return /** @type {Answer} */ (answer);
  }

  /**
   * Cancels a confirmed booking (retried on 503 or no answer); now and then twice at once.
   * @param {ChaosClient} client
   * @param {number} bookingId
   * @param {Rng} rng
   */
  async cancel(client, bookingId, rng) {
    const once = async () => {
      for (let attempt = 1; attempt <= RETRIES; attempt++) {
        const answer = await this.call('cancel', client, 'POST', `/book/cancel/${bookingId}`);
        this.answers.cancel(client, bookingId, answer);
        if (!retryable(answer)) return;
        await this.backoff(attempt, answer);
      }
    };
    await (rng() < 0.3 ? Promise.all([once(), once()]) : once());
  }

  /**
   * @param {number} attempt
   * @param {Answer} answer
   */
  backoff(attempt, answer) {
    const retryAfterMs = Number(answer.headers?.['retry-after']) * 1000;
    return sleep(Math.min(3000, retryAfterMs > 0 ? retryAfterMs : 250 * 2 ** attempt));
  }
}

module.exports = { Load, Recorder, BUSINESS_FAILURES, CONTACT };
