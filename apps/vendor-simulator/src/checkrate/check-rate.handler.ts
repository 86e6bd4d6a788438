import { Inject, Injectable } from '@nestjs/common';
import type { CheckRateRS } from '@hotel/hotelbeds';
import { SIMULATOR_CLOCK, type SimulatorClock } from '../clock';
import { BookingsRepository } from '../bookings/bookings.repository';
import { productError } from '../http/vendor-errors';
import type { SimulatorScenario } from '../http/vendor-request';
import { VENDORS, allotmentCapacity, priceEpoch, type Hotel, type VendorCode } from '../inventory/simulated-inventory';
import { hotelCodeOf } from '../inventory/vendor-codes';
import { hotelHeader, roomsOf } from '../protocol/wire-hotels';
import { encodeRateKey, type RateTerms } from '../rates/rate-key';
import { requestedRates, roomsWanted } from '../rates/requested-rates';
import { amountText, priceRate, wireRate, type PricedRate } from '../rates/vendor-rates';
import type { CredentialsByVendor } from '../vendors/vendor-credentials';
import { VENDOR_CREDENTIALS } from '../vendors/vendor-tokens';
import type { CheckRateRequest } from './check-rate.request';

/** How many price steps ahead the price_changed scenario looks for a price that differs. */
const PRICE_CHANGE_HORIZON = 500;

/**
 * Reprices rate keys now. Prices move with the price step (every 15 minutes; in about one
 * step in ten a vendor's price at a hotel is 3% lower or 4% higher than usual), so the
 * answer may differ from what the key was issued at: the new `net` says so, with a new
 * key, BOOKABLE, at the new price. A rate gone (closed, too few rooms left) is the
 * vendor's PRODUCT_ERROR. Sandbox scenarios: sold_out answers the rate gone, price_changed
 * the price of the first later step in which it differs.
 */
@Injectable()
export class CheckRateHandler {
  constructor(
    private readonly bookings: BookingsRepository,
    @Inject(SIMULATOR_CLOCK) private readonly clock: SimulatorClock,
    @Inject(VENDOR_CREDENTIALS) private readonly credentials: CredentialsByVendor,
  ) {}

  async check(vendorCode: VendorCode, request: CheckRateRequest, scenario: SimulatorScenario | undefined): Promise<Omit<CheckRateRS, 'auditData'>> {
    const now = this.clock.now();
    const { secret } = this.credentials[vendorCode];
    const { hotel, checkIn, checkOut, terms } = requestedRates(vendorCode, secret, request.rooms.map((room) => room.rateKey), now);
    if (scenario === 'sold_out') throw productError('The rate is no longer available (sandbox scenario sold_out)');
    const left = await this.bookings.roomsLeft(vendorCode, [hotelCodeOf(hotel)], checkIn, checkOut);
    for (const [roomId, rooms] of roomsWanted(terms)) {
      const roomsLeft = left.find((row) => row.roomId === roomId)?.left ?? allotmentCapacity(vendorCode, hotel.id, roomId);
      if (roomsLeft < rooms) throw productError('Insufficient allotment');
    }
    let epoch = priceEpoch(now);
    if (scenario === 'price_changed') epoch = firstStepPricedOtherwise(hotel, terms, epoch, now);
    const priced = terms.map((term) => priceRate(hotel, { ...term, epoch }, now));
    return {
      hotel: {
        checkOut,
        checkIn,
        ...hotelHeader(hotel),
        rooms: roomsOf(priced, (rate) => wireRate(rate, { rateKey: encodeRateKey({ ...rate.terms, checked: true }, secret), rateType: 'BOOKABLE' })),
        totalNet: amountText(total(priced)),
        currency: VENDORS[vendorCode].currency,
      },
    };
  }
}

function total(rates: readonly PricedRate[]): number {
  return rates.reduce((sum, rate) => sum + rate.netMilli, 0);
}

/** The first price step from `from` on in which the rates cost other than they did in their keys' steps. */
function firstStepPricedOtherwise(hotel: Hotel, terms: readonly RateTerms[], from: number, now: number): number {
  const quoted = total(terms.map((term) => priceRate(hotel, term, now)));
  for (let epoch = from; epoch < from + PRICE_CHANGE_HORIZON; epoch++) {
    if (total(terms.map((term) => priceRate(hotel, { ...term, epoch }, now))) !== quoted) return epoch;
  }
  throw productError('Price has changed');
}
