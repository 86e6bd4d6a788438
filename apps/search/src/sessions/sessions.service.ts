import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Actor, ClientPricing, HotelRate, formatAmount, milliToDecimal, toMilli, HotelRates, ResolvedRate, rateOf, SearchHotel, SearchProgress, StaySearch } from '@hotel/contracts';
import {
  Hotel,
  findPlace,
  priceEpoch,
  toHotelProfile,
  v1RateId,
  convertRate,
  FxRates,
  OfferKey,
  SupplierOffer,
  Suppliers,
} from '@hotel/inventory';
import { BACKGROUND_JOBS, BackgroundJobs, DomainError, SERVICE_ENV } from '@hotel/platform';
import { OfferFinder, PricedOffer } from '../offers/offer-finder';
import { SearchEnv } from '../search.env';
import { HotelCatalog } from '../catalog/hotel-catalog';
import { SearchSession, SessionRepository } from './session.repository';
import { LowestOffer, VendorAnswersRepository } from './vendor-answers.repository';

/** Hotels one V1 search covers at most (a country covers its biggest cities). */
export const SESSION_HOTEL_CAP = 300;

/**
 * V1 search sessions. Each vendor is asked once per session, in the background, and its
 * answer (each hotel's lowest offer) is stored: every poll derives the results gathered
 * so far from the stored search and answers, so whichever replica serves a poll gives the
 * same answer. A hotel's rates are asked of every vendor then and there.
 */
@Injectable()
export class SessionsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('SessionsService');
  private cleanup?: NodeJS.Timeout;

  constructor(
    private readonly sessions: SessionRepository,
    private readonly offers: OfferFinder,
    private readonly vendorAnswers: VendorAnswersRepository,
    private readonly suppliers: Suppliers,
    private readonly fx: FxRates,
    private readonly catalog: HotelCatalog,
    @Inject(SERVICE_ENV) private readonly env: SearchEnv,
    @Inject(BACKGROUND_JOBS) private readonly background: BackgroundJobs,
  ) {}

  /** Expired sessions already answer 404; this removes their rows now and then (any replica may). */
  onModuleInit() {
    this.cleanup = setInterval(() => {
      void this.background.run('session-cleanup', () =>
        this.sessions.deleteIdle(this.env.SESSION_TTL_S * 2).catch((error) => this.logger.warn({ msg: 'session cleanup failed', error: String(error) })),
      );
    }, 5 * 60_000);
    this.cleanup.unref();
  }

  onModuleDestroy() {
    clearInterval(this.cleanup);
  }

  async create(actor: Actor, pricing: ClientPricing, search: StaySearch): Promise<SearchProgress> {
    const place = findPlace(search.placeId);
    if (!place) throw DomainError.validation([{ field: 'placeId', message: 'placeId names no known place' }]);
    const session = await this.sessions.create({
      id: randomUUID(),
      clientId: actor.clientId,
      userId: actor.userId ?? null,
      placeId: place.placeId,
      checkIn: search.checkIn,
      checkOut: search.checkOut,
      rooms: search.rooms.map((room) => ({ adults: room.adults, children: room.children, children_ages: room.childAges })),
      priceEpoch: priceEpoch(),
      pricing,
      fxDate: (await this.fx.cache.current()).inForce?.date ?? null,
    });
    return this.results(session);
  }

  async poll(actor: Actor, sessionId: string): Promise<SearchProgress> {
    return this.results(await this.use(actor, sessionId));
  }

  async hotelRates(actor: Actor, sessionId: string, hotelId: number): Promise<HotelRates> {
    const session = await this.use(actor, sessionId);
    const hotel = await this.catalog.hotel(hotelId);
    if (!hotel || !(await this.sessionHotels(session)).some((candidate) => candidate.id === hotelId)) {
      throw DomainError.notFound(`hotel ${hotelId} in this search`);
    }
    const elapsed = await this.sessions.hotelViewElapsedMs(session.id, hotelId);
    const { offers, missing } = await this.pricedRates(session, [hotel], this.suppliers.codes);
    // Complete once every vendor answered, or the search's window has passed since the hotel was first asked for.
    const completed = missing.length === 0 || elapsed >= this.env.SEARCH_TIMEOUT_MS;
    const rates = offers.map((offer) => withV1Id(session.id, offer)).sort((a, b) => a.price_chargeable - b.price_chargeable);
    return { hotel: toHotelProfile(hotel), rates: rates.map(rateOf), completed };
  }

  /** The offer behind a V1 rate id, for prebook: the session must be the caller's and alive. */
  async resolveRate(actor: Actor, sessionId: string, hotelId: number, rateId: string): Promise<ResolvedRate> {
    const session = await this.use(actor, sessionId);
    const hotel = (await this.sessionHotels(session)).find((candidate) => candidate.id === hotelId);
    const stay = { check_in: session.checkIn, check_out: session.checkOut, rooms: session.rooms };
    const { offers } = hotel
      ? await this.offers.find([hotel], this.suppliers.codes, stay, {
          includeMemberRates: true,
          context: { epoch: session.priceEpoch, issuedAt: session.createdAt },
          deadlineMs: this.env.V2_DEADLINE_MS,
        })
      : { offers: [] };
    const key = offers.find((offer) => v1RateId(session.id, offer.key) === rateId)?.key;
    if (!key) throw new DomainError('RATE_NOT_AVAILABLE', 'rate not available');
    const place = findPlace(session.placeId)!;
    return {
      key,
      search: { destination_id: place.destinationId, place_id: place.placeId, coordinates: null, radius: null, ...stay },
      epoch: session.priceEpoch,
      issuedAt: session.createdAt.toISOString(),
      pricing: session.pricing,
      fxDate: session.fxDate,
    };
  }

  /** The session if it exists, belongs to the caller's client and has not expired; marks it used. */
  private async use(actor: Actor, sessionId: string): Promise<SearchSession> {
    const session = await this.sessions.find(sessionId);
    // A user token reaches its own user's sessions only; the client's keys reach all of the client's.
    if (!session || session.clientId !== actor.clientId || (actor.role === 'user' && session.userId !== actor.userId)) {
      throw DomainError.notFound(`session ${sessionId}`);
    }
    if (session.idleSeconds > this.env.SESSION_TTL_S) throw new DomainError('SESSION_EXPIRED', 'session expired; start a new search');
    // Refreshing last use at most once a minute is enough for a 30-minute lifetime.
    if (session.idleSeconds > 60) await this.sessions.touch(session.id);
    return session;
  }

  private async sessionHotels(session: SearchSession) {
    return (await this.catalog.forPlace(session.placeId, SESSION_HOTEL_CAP)) ?? [];
  }

  /** Every vendor's rates for the hotels, in the client's currency at the rates in force when the session began (every poll shows the same prices). */
  private async pricedRates(session: SearchSession, hotels: Hotel[], vendors: readonly string[]): Promise<{ offers: PricedOffer[]; missing: string[] }> {
    const stay = { check_in: session.checkIn, check_out: session.checkOut, rooms: session.rooms };
    const [fx, { offers, missing }] = await Promise.all([
      this.fx.cache.current(session.fxDate),
      this.offers.find(hotels, vendors, stay, {
        includeMemberRates: true,
        context: { epoch: session.priceEpoch, issuedAt: session.createdAt },
        deadlineMs: this.env.V2_DEADLINE_MS,
      }),
    ]);
    return { offers: offers.map((offer) => ({ ...offer, rate: convertRate(offer.rate, fx.priced(offer.rate.price_currency, session.pricing, session.fxDate)) })), missing };
  }

  private async results(session: SearchSession): Promise<SearchProgress> {
    const hotels = await this.sessionHotels(session);
    const [fx, answers] = await Promise.all([this.fx.cache.current(session.fxDate), this.vendorAnswersOf(session, hotels)]);
    const conversion = (vendorCurrency: string) => fx.priced(vendorCurrency, session.pricing, session.fxDate);
    // Complete once every vendor answered (or failed), or the search's window has passed.
    const completed = answers.waiting === 0 || session.elapsedMs >= this.env.SEARCH_TIMEOUT_MS;
    // Only each hotel's lowest price is shown: the price for the stay is the vendor's
    // converted once (as convertRate converts it), so the rest of each rate is not converted.
    const lowest = new Map<number, { key: OfferKey; price: number; currency: string }>();
    const consider = (hotelId: number, key: OfferKey, vendorPrice: number | string, vendorCurrency: string) => {
      const fx = conversion(vendorCurrency);
      const price = fx.convert(toMilli(vendorPrice));
      const current = lowest.get(hotelId);
      if (!current || price < current.price) lowest.set(hotelId, { key, price, currency: fx.to });
    };
    for (const answer of answers.lowest) consider(answer.key.hotelId, answer.key, answer.price, answer.currency);
    const byId = new Map(hotels.map((hotel) => [hotel.id, hotel]));
    const found: SearchHotel[] = [...lowest.entries()]
      .sort(([, a], [, b]) => a.price - b.price)
      .map(([hotelId, { key, price, currency }]) => {
        const hotel = byId.get(hotelId)!;
        return { id: hotel.id, name: hotel.name, stars: hotel.stars, lowestRate: { id: v1RateId(session.id, key), amount: formatAmount(price, currency), currency } };
      });
    return { sessionId: session.id, completed, hotels: found };
  }

  /**
   * What the vendors answered the session (each hotel's lowest offer), and how many are
   * still to answer. A vendor nobody has asked yet, or whose asker has not answered in
   * time (a replica gone), is asked now, in the background: this poll does not wait.
   */
  private async vendorAnswersOf(session: SearchSession, hotels: Hotel[]): Promise<{ lowest: LowestOffer[]; waiting: number }> {
    const vendors = this.suppliers.codes;
    if (hotels.length === 0) return { lowest: [], waiting: 0 };
    const answers = new Map((await this.vendorAnswers.answers(session.id)).map((answer) => [answer.vendor, answer]));
    const lowest: LowestOffer[] = [];
    let waiting = 0;
    for (const vendor of vendors) {
      const answer = answers.get(vendor);
      if (answer?.state === 'answered') lowest.push(...answer.lowest!);
      if (answer?.state === 'answered' || answer?.state === 'failed') continue;
      waiting++;
      if (!answer || answer.lapsed) await this.askInBackground(session, vendor, hotels);
    }
    return { lowest, waiting };
  }

  /** Asks a vendor for the session's hotels, once across replicas (a claim), recording its answer when it comes. */
  private async askInBackground(session: SearchSession, vendor: string, hotels: Hotel[]): Promise<void> {
    // The vendor has the search's whole window; the claim a little more, so a slow answer is still recorded by its asker.
    if (!(await this.vendorAnswers.claim(session.id, vendor, this.env.SEARCH_TIMEOUT_MS + 5000))) return;
    const stay = { check_in: session.checkIn, check_out: session.checkOut, rooms: session.rooms };
    const request = { includeMemberRates: true, context: { epoch: session.priceEpoch, issuedAt: session.createdAt }, deadlineMs: this.env.SEARCH_TIMEOUT_MS };
    void this.background.run('vendor-answer', async () => {
      try {
        const answer = await this.offers.ask(vendor, hotels, stay, request);
        await this.vendorAnswers.record(session.id, vendor, answer && lowestOffers(answer));
      } catch (error) {
        // Unrecorded: the claim runs out and the next poll asks again.
        this.logger.warn({ msg: "a vendor's answer to a search could not be recorded", vendor, sessionId: session.id, error: String(error) });
      }
    });
  }
}

/** Each hotel's cheapest offer in a vendor's answer (in the vendor's currency). */
function lowestOffers(answer: SupplierOffer[][]): LowestOffer[] {
  const lowest: LowestOffer[] = [];
  for (const offers of answer) {
    let best: SupplierOffer | undefined;
    for (const offer of offers) if (!best || toMilli(offer.rate.price_chargeable) < toMilli(best.rate.price_chargeable)) best = offer;
    if (best) lowest.push({ key: best.key, price: milliToDecimal(toMilli(best.rate.price_chargeable), 3), currency: best.rate.price_currency });
  }
  return lowest;
}

function withV1Id(sessionId: string, offer: PricedOffer): HotelRate {
  return { id: v1RateId(sessionId, offer.key), ...offer.rate };
}
