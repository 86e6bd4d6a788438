import { Inject, Injectable } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  Actor,
  ClientPricing,
  formatAmount,
  CreatePrebookRequest,
  FindPrebookRequest,
  StoredPrebook,
  HotelRate,
  Prebook,
  PrebookPromo,
  prebookAnswer,
  rateOf,
  PrebookSearch,
  SUBJECTS,
  milliToDecimal,
  scaleToCurrency,
  milliToNumber,
  nightsBetween,
  toMilli,
} from '@hotel/contracts';
import {
  FxRates,
  Hotel,
  OfferKey,
  PRICE_EPOCH_SECONDS,
  Stay,
  SupplierPort,
  Suppliers,
  decodeV2RateId,
  priceEpoch,
  toHotelDetails,
  toHotelProfile,
  convertRate,
} from '@hotel/inventory';
import { DomainError, SERVICE_CLIENT, SERVICE_ENV, ServiceClient } from '@hotel/platform';
import { RatesEnv } from '../rates.env';
import { PrebooksRepository } from './prebooks.repository';
import { CatalogHotels } from './catalog-hotels';

const RATE_NOT_AVAILABLE = () => new DomainError('RATE_NOT_AVAILABLE', 'rate not available');

interface Offer {
  key: OfferKey;
  stay: Stay;
  search: PrebookSearch;
  /** When and in which price step the client saw the rate. */
  seenEpoch: number;
  seenAt: Date;
  /** How the client was priced when it saw the rate (a V1 session's); unknown for a V2 rate id. */
  pricing?: ClientPricing;
  /** The exchange rates' date the price was shown at (a V2 rate id's). */
  fxDate?: string | null;
}

/**
 * Prebook: recheck a rate with its vendor (it may have sold out or changed
 * price), apply a promo code, check funds for account payment, and store the
 * result so book can rely on it until it expires, whichever replica serves book.
 */
@Injectable()
export class PrebooksService {
  constructor(
    private readonly prebooks: PrebooksRepository,
    private readonly suppliers: Suppliers,
    private readonly fx: FxRates,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    @Inject(SERVICE_ENV) private readonly env: RatesEnv,
    private readonly catalog: CatalogHotels,
  ) {}

  async create(request: CreatePrebookRequest): Promise<Prebook> {
    const { actor } = request;
    const offer = request.sessionId ? await this.v1Offer(request) : this.v2Offer(request.rateId);
    const hotel = await this.catalog.hotel(offer.key.hotelId);
    if (!hotel) throw RATE_NOT_AVAILABLE();
    if (request.testScenario === 'sold_out' && actor.sandbox) throw RATE_NOT_AVAILABLE();
    // What the client saw: a remote vendor's offer carries the price it answered then.
    const seenKey = offer.key;
    const { vendor, key } = await this.recheckAvailability(hotel, offer, actor.sandbox);
    // Booked as the vendor now holds it (a remote vendor's recheck may have given new rate keys, and a new price).
    offer.key = key;

    const now = new Date();
    const [fx, vendorPrice, vendorSeen] = await Promise.all([
      this.fx.cache.current(offer.fxDate),
      vendor.price(hotel, offer.key, offer.stay, { epoch: priceEpoch(now.getTime()), issuedAt: now, sandbox: actor.sandbox }),
      vendor.seenPrice(hotel, seenKey, offer.stay, { epoch: offer.seenEpoch, issuedAt: offer.seenAt }),
    ]);
    // The conversion is fixed here, at the rates in force now; what the client saw was
    // converted at the rates in force when it was shown, with its pricing then.
    const conversion = fx.priced(vendorPrice.price_currency, request.pricing);
    const current = convertRate(vendorPrice, conversion);
    let seenChargeable = milliToNumber(fx.shown(vendorSeen.currency, offer.pricing ?? request.pricing, offer.seenAt, offer.fxDate).convert(vendorSeen.milli));
    if (request.testScenario === 'price_changed' && actor.sandbox) {
      // The client "saw" 5% less than the vendor's current price.
      seenChargeable = milliToNumber(scaleToCurrency(toMilli(current.price_chargeable), 95n, 100n, current.price_currency));
    }
    const rate: HotelRate = { id: request.rateId, ...current, payment_type: request.paymentMethod };

    const promo = request.promoCode ? await this.applyPromo(request.promoCode, rate, actor.sandbox) : null;
    if (request.paymentMethod === 'account' && !actor.sandbox) await this.requireFunds(actor, rate.price_chargeable, rate.price_currency);

    const prebookId = randomUUID();
    const expiresAt = new Date(now.getTime() + this.env.PREBOOK_TTL_S * 1000);
    const bookingId = await this.prebooks.bookingInProgress(actor.clientId, hotel.id, request.rateId, request.paymentMethod);
    const { search } = offer;
    const prebook: Prebook = {
      id: prebookId,
      stay: {
        placeId: search.place_id,
        destinationId: search.destination_id,
        coordinates: search.coordinates,
        radius: search.radius,
        checkIn: search.check_in,
        checkOut: search.check_out,
        rooms: search.rooms.map((room) => ({ adults: room.adults, children: room.children, childAges: room.children_ages })),
      },
      hotel: toHotelProfile(hotel),
      nights: nightsBetween(offer.stay.check_in, offer.stay.check_out),
      rate: rateOf(rate),
      remarks: remarks(hotel, rate),
      bookingInProgress: bookingId !== null,
      bookingId,
      paymentSessionToken: request.paymentMethod === 'credit_card' ? `pst_${randomBytes(24).toString('base64url')}` : null,
      promo,
      priceChanged: current.price_chargeable !== seenChargeable,
      previousPrice: formatAmount(toMilli(seenChargeable), rate.price_currency),
      expiresAt: expiresAt.toISOString(),
    };
    await this.prebooks.insert({
      id: prebookId,
      clientId: actor.clientId,
      userId: actor.userId ?? null,
      sandbox: actor.sandbox,
      sessionId: request.sessionId ?? null,
      hotelId: hotel.id,
      rateId: request.rateId,
      paymentMethod: request.paymentMethod,
      offer: offer.key,
      // The record a booking reads (rates.prebook.find) stays the API's shape, which the previous
      // release's booking service reads too: a domain record needs a new column first (expand/contract).
      response: prebookAnswer(prebook),
      priceChargeable: milliToDecimal(toMilli(rate.price_chargeable)),
      promoCode: promo?.applied ? request.promoCode!.trim().toUpperCase() : null,
      discount: milliToDecimal(promo?.applied ? toMilli(promo.discount) : 0),
      fx: {
        vendorCurrency: vendorPrice.price_currency,
        vendorPrice: milliToDecimal(toMilli(vendorPrice.price_chargeable)),
        fxRate: conversion.rate,
        fxRateDate: conversion.date,
        fxMarginPercent: conversion.marginPercent,
      },
      expiresAt,
    });
    return prebook;
  }

  /** The unexpired prebook a booking relies on: otherwise 400 prebook required. */
  async findForBooking(request: FindPrebookRequest): Promise<StoredPrebook> {
    const { actor } = request;
    const row = await this.prebooks.findForBooking({ clientId: actor.clientId, sandbox: actor.sandbox, userId: actor.role === 'user' ? actor.userId : null }, {
      prebookId: request.prebookId,
      hotelId: request.hotelId,
      sessionId: request.sessionId,
      rateId: request.rateId,
      paymentMethod: request.paymentMethod,
    });
    if (!row || row.expired) throw new DomainError('PREBOOK_REQUIRED', row ? 'prebook required: the prebook has expired, prebook again' : 'prebook required');
    return {
      prebookId: row.id,
      offer: row.offer,
      paymentMethod: row.paymentMethod,
      response: row.response,
      hotel: { ...toHotelDetails((await this.catalog.hotel(row.offer.hotelId))!, request.language ?? 'en'), lowest_rate: null, lowest_brand_loyalty_rate: null },
      priceChargeable: row.priceChargeable,
      promoCode: row.promoCode,
      discount: row.discount,
      fx: row.fx,
      expiresAt: row.expiresAt.toISOString(),
    };
  }

  async attachBooking(prebookId: string, bookingId: number, processing: boolean): Promise<void> {
    await this.prebooks.attachBooking(prebookId, bookingId, processing);
  }

  private async v1Offer(request: CreatePrebookRequest): Promise<Offer> {
    if (request.hotelId === undefined) throw DomainError.validation([{ field: 'hotel_id', message: 'hotel_id is required with session_id' }]);
    const resolved = await this.services.send(SUBJECTS.SEARCH_RATE_RESOLVE, {
      actor: request.actor,
      sessionId: request.sessionId!,
      hotelId: request.hotelId,
      rateId: request.rateId,
    });
    const { check_in, check_out, rooms } = resolved.search;
    return {
      key: resolved.key as OfferKey,
      stay: { check_in, check_out, rooms },
      search: resolved.search,
      seenEpoch: resolved.epoch,
      seenAt: new Date(resolved.issuedAt),
      pricing: resolved.pricing,
      fxDate: resolved.fxDate,
    };
  }

  private v2Offer(rateId: string): Offer {
    // V2 ids are issued at the start of a price step: valid V2_RATE_TTL_S after the answer at least.
    const payload = decodeV2RateId(rateId, this.env.RATE_ID_SECRET, this.env.V2_RATE_TTL_S + PRICE_EPOCH_SECONDS);
    if (!payload) throw new DomainError('RATE_NOT_AVAILABLE', 'rate not available: unknown or expired rate_id');
    return {
      key: payload.key,
      stay: payload.stay,
      search: { destination_id: null, place_id: null, coordinates: null, radius: null, ...payload.stay },
      seenEpoch: payload.epoch,
      seenAt: payload.issuedAt,
      fxDate: payload.fxDate,
    };
  }

  /** The vendor still offers it (its recheck: not closed on those nights, and rooms left in its allotment). Answers the vendor's supplier. */
  private async recheckAvailability(hotel: Hotel, offer: Offer, sandbox: boolean): Promise<{ vendor: SupplierPort; key: OfferKey }> {
    const vendor = this.suppliers.find(offer.key.vendor);
    if (!vendor) throw RATE_NOT_AVAILABLE();
    const key = await vendor.recheck(hotel, offer.key, offer.stay, sandbox);
    if (!key) throw RATE_NOT_AVAILABLE();
    return { vendor, key };
  }

  /** A valid code lowers the price; an invalid one leaves it and says why. */
  private async applyPromo(code: string, rate: HotelRate, sandbox: boolean): Promise<PrebookPromo> {
    try {
      const quote = await this.services.send(SUBJECTS.PROMO_CODE_QUOTE, {
        code,
        amount: milliToDecimal(toMilli(rate.price_chargeable)),
        currency: rate.price_currency,
        sandbox,
      });
      const discount = toMilli(quote.discount);
      rate.price_chargeable = milliToNumber(toMilli(rate.price_chargeable) - discount);
      rate.price_inclusive = milliToNumber(toMilli(rate.price_inclusive) - discount);
      return { applied: true, message: `promo code ${quote.code} applied`, discount: formatAmount(discount, rate.price_currency) };
    } catch (error) {
      if (error instanceof DomainError && error.code === 'PROMO_CODE_INVALID') return { applied: false, message: error.message, discount: formatAmount(0, rate.price_currency) };
      throw error;
    }
  }

  /** Advisory: the binding check is the hold the booking places. A user is also held to their own limit. */
  private async requireFunds(actor: Actor, amount: number, currency: string): Promise<void> {
    let userLimit: string | undefined;
    if (actor.userId) {
      const user = await this.services.send(SUBJECTS.USERS_USER_GET, { actor, userId: actor.userId });
      userLimit = user.clientAccountLimit;
    }
    const check = await this.services.send(SUBJECTS.ACCOUNTING_FUNDS_CHECK, {
      clientId: actor.clientId,
      amount: milliToDecimal(toMilli(amount)),
      currency,
      ...(actor.userId && { userId: actor.userId, userLimit }),
    });
    if (!check.sufficient) throw new DomainError('INSUFFICIENT_FUNDS', 'insufficient funds');
  }
}

function remarks(hotel: Hotel, rate: HotelRate): string {
  const parts = [
    `Check-in from ${hotel.checkInBegin} to ${hotel.checkInEnd}; check-out before ${hotel.checkOutBefore}.`,
    `Guests must be at least ${hotel.minimumAge} years old to check in.`,
  ];
  const amount = (value: number) => `${formatAmount(toMilli(value), rate.price_currency)} ${rate.price_currency}`;
  if (rate.price_due_at_hotel > 0) parts.push(`Payable at the hotel: ${amount(rate.price_due_at_hotel)} (resort fees).`);
  if (rate.rooms.some((room) => room.deposit_per_accomodation_per_night > 0)) {
    parts.push(`A refundable deposit of ${amount(rate.rooms[0].deposit_per_accomodation_per_night)} per night is collected at check-in.`);
  }
  return parts.join(' ');
}
