import { ClientPricing, Decimal, FxConversion, FxRateSet, TEN, fxRatesAgeDays, parseDecimal, pow10 } from '@hotel/contracts';

export { FxConversion };
import { DomainError } from '@hotel/platform';

/** The ECB quotes every currency against the euro; the euro itself is not in its file. */
const BASE_CURRENCY = 'EUR';

/** A rate is recorded, and converted at, with this many significant digits (ECB rates have five or six). */
const RATE_SIGNIFICANT_DIGITS = 10;

/**
 * numerator / denominator (both positive) rounded half up to `significant` digits, as a
 * decimal string without trailing zeros ("0.8098223235", "117.92").
 */
function roundedQuotient(numerator: bigint, denominator: bigint, significant: number): string {
  // exponent: the power of ten of the quotient's first digit.
  let exponent = numerator.toString().length - denominator.toString().length;
  if (exponent >= 0 ? numerator < denominator * pow10(exponent) : numerator * pow10(-exponent) < denominator) exponent--;
  const shift = significant - 1 - exponent;
  const scaledNumerator = shift >= 0 ? numerator * pow10(shift) : numerator;
  const scaledDenominator = shift >= 0 ? denominator : denominator * pow10(-shift);
  let digits = (scaledNumerator * 2n + scaledDenominator) / (scaledDenominator * 2n);
  let scale = shift;
  if (digits.toString().length > significant) {
    digits /= TEN;
    scale--;
  }
  if (scale <= 0) return (digits * pow10(-scale)).toString();
  const text = digits.toString().padStart(scale + 1, '0');
  return `${text.slice(0, -scale)}.${text.slice(-scale)}`.replace(/\.?0+$/, '');
}

/** ISO 4217 code → units per euro (the euro itself 1). */
function ratesOf(set: FxRateSet): (currency: string) => Decimal | null {
  return (currency) => {
    if (currency === BASE_CURRENCY) return { digits: 1n, scale: 0 };
    const rate = set.rates[currency];
    return rate === undefined ? null : parseDecimal(rate);
  };
}

/** A margin in percent ("1.5") as basis points (150). */
function basisPoints(marginPercent: string): bigint {
  const { digits, scale } = parseDecimal(marginPercent);
  return scale <= 2 ? digits * pow10(2 - scale) : digits / pow10(scale - 2);
}

/**
 * The conversion from a vendor's currency into a client's at a set of ECB rates:
 * cross rate (client per euro / vendor per euro) times (1 + margin), rounded to ten
 * significant digits; none (a rate of 1, no margin) when both are the same.
 * FX_RATE_UNAVAILABLE when the set quotes either currency not.
 */
export function conversionAt(set: FxRateSet | null, from: string, pricing: ClientPricing): FxConversion {
  const to = pricing.currency;
  // The margin is the price of changing currencies: a price in the client's own currency has none.
  if (from === to) return new FxConversion(from, to, '1', null, '0');
  const margin = basisPoints(pricing.fxMarginPercent);
  if (!set) throw new DomainError('FX_RATE_UNAVAILABLE', `no exchange rates are in force: prices in ${to} cannot be given`, undefined, 60);
  const rateOf = ratesOf(set);
  const toRate = rateOf(to);
  const fromRate = rateOf(from);
  const missing = [to, from].find((currency) => rateOf(currency) === null);
  if (!toRate || !fromRate) {
    throw new DomainError('FX_RATE_UNAVAILABLE', `no exchange rate for ${missing} is in force (rates of ${set.date}): prices in ${to} cannot be given`, undefined, 60);
  }
  // (to / 10^ts) / (from / 10^fs) × (10000 + margin) / 10000
  const numerator = toRate.digits * pow10(fromRate.scale) * (10_000n + margin);
  const denominator = fromRate.digits * pow10(toRate.scale) * 10_000n;
  return new FxConversion(from, to, roundedQuotient(numerator, denominator, RATE_SIGNIFICANT_DIGITS), set.date, pricing.fxMarginPercent);
}

export interface FxPolicy {
  /** Rates older than this many days are stale. */
  maxAgeDays: number;
  /** Stale rates refuse to price (503 FX_RATES_STALE) rather than only warn. */
  refuseStale: boolean;
}

/**
 * The exchange rate sets a converter knows (the set in force first, then older ones,
 * newest first), and the rules for using them. A price is converted at the set that
 * was in force at a moment (a search session's start, a V2 price step's start, a
 * prebook's now): the newest set taken in by then.
 */
export class FxTable {
  /** Conversions made so far, by set, currencies and margin: a search converts thousands of prices at a few. */
  private readonly conversions = new Map<string, FxConversion>();

  constructor(
    readonly sets: readonly FxRateSet[],
    private readonly policy: FxPolicy,
  ) {}

  private conversion(set: FxRateSet | null, from: string, pricing: ClientPricing): FxConversion {
    const key = `${set?.date ?? '-'}|${from}|${pricing.currency}|${pricing.fxMarginPercent}`;
    let conversion = this.conversions.get(key);
    if (!conversion) {
      conversion = conversionAt(set, from, pricing);
      this.conversions.set(key, conversion);
    }
    return conversion;
  }

  get inForce(): FxRateSet | null {
    return this.sets[0] ?? null;
  }

  /** The newest set taken in at or before `time` (the oldest known when none was). */
  setAt(time: Date): FxRateSet | null {
    return this.sets.find((set) => Date.parse(set.importedAt) <= time.getTime()) ?? this.sets[this.sets.length - 1] ?? null;
  }

  /** The set of a reference date, if this table has it. */
  setOf(date: string): FxRateSet | null {
    return this.sets.find((set) => set.date === date) ?? null;
  }

  /**
   * The conversion of a price given now: at the set of `fxDate` (a search session's), or
   * at the set in force. 503 FX_RATES_STALE when that set is older than the policy allows
   * and the policy refuses stale rates (production), so nothing is sold at an old rate.
   * A date this table does not have is 503 too (FxRatesCache.current(date) fetches it first).
   */
  priced(from: string, pricing: ClientPricing, fxDate: string | null = null, now = Date.now()): FxConversion {
    const set = fxDate ? this.setOf(fxDate) : this.inForce;
    if (fxDate && !set) throw new DomainError('SERVICE_UNAVAILABLE', `the exchange rates of ${fxDate} are not known here yet`, undefined, 5);
    if (from !== pricing.currency && set && this.policy.refuseStale && fxRatesAgeDays(set.date, now) > this.policy.maxAgeDays) {
      throw new DomainError(
        'FX_RATES_STALE',
        `exchange rates of ${set.date} are older than ${this.policy.maxAgeDays} days: prices in ${pricing.currency} are not offered until they are refreshed`,
        undefined,
        300,
      );
    }
    return this.conversion(set, from, pricing);
  }

  /**
   * The conversion a price shown earlier was made with, to compare with today's (no
   * staleness check): at the set of `fxDate` when the price says which, else at the set
   * in force at `time`.
   */
  shown(from: string, pricing: ClientPricing, time: Date, fxDate?: string | null): FxConversion {
    return this.conversion((fxDate ? this.setOf(fxDate) : null) ?? this.setAt(time), from, pricing);
  }
}

/**
 * The exchange rates a service converts with, loaded from their owner and kept: for
 * `ttlMs` (0: asked every time, when the loader is itself a cache in memory) or until
 * `invalidate()` (the rates-updated event). A failed reload keeps the sets it had; with
 * none yet, converting answers 503. Stale sets outside production only warn, once an hour.
 */
export class FxRatesCache {
  private table: FxTable | null = null;
  private tableOf: readonly FxRateSet[] | null = null;
  private loadedAt = 0;
  private loading: Promise<FxTable> | null = null;
  private warnedAt = 0;

  constructor(
    private readonly load: () => Promise<readonly FxRateSet[]>,
    private readonly policy: FxPolicy,
    private readonly warn: (message: string, fields: Record<string, unknown>) => void,
    private readonly ttlMs = 5 * 60_000,
  ) {}

  /** Forget the sets: the next conversion loads them again. */
  invalidate(): void {
    this.loadedAt = 0;
  }

  /**
   * The sets as they stand; `needed`: a reference date a price was shown at (by another
   * replica, perhaps one that heard of new rates first), asked of the owner again when
   * this table does not have it yet.
   */
  async current(needed?: string | null): Promise<FxTable> {
    const fresh = this.table && Date.now() - this.loadedAt < this.ttlMs && !(needed && !this.table.setOf(needed));
    const table = fresh ? this.table! : await (this.loading ??= this.reload().finally(() => (this.loading = null)));
    this.warnIfStale(table);
    return table;
  }

  private async reload(): Promise<FxTable> {
    try {
      const sets = await this.load();
      // The loader may hand back the same array: the table built from it stays.
      if (sets !== this.tableOf || !this.table) this.table = new FxTable(sets, this.policy);
      this.tableOf = sets;
      this.loadedAt = Date.now();
      return this.table;
    } catch (error) {
      if (this.table) {
        this.warn('exchange rates could not be reloaded; converting with the ones kept', { error: String(error), date: this.table.inForce?.date });
        this.loadedAt = Date.now() - this.ttlMs + 10_000;
        return this.table;
      }
      throw new DomainError('SERVICE_UNAVAILABLE', 'exchange rates are not available yet', undefined, 5);
    }
  }

  private warnIfStale(table: FxTable): void {
    const set = table.inForce;
    if (!set || this.policy.refuseStale || Date.now() - this.warnedAt < 3600_000) return;
    const age = fxRatesAgeDays(set.date);
    if (age <= this.policy.maxAgeDays) return;
    this.warnedAt = Date.now();
    this.warn('exchange rates are stale: prices are converted at old rates (refused with NODE_ENV=production)', { date: set.date, ageDays: age, maxAgeDays: this.policy.maxAgeDays });
  }
}

/** The FX policy of a service's environment: stale rates refused with NODE_ENV=production, else a warning. */
export function fxPolicyOf(env: { FX_MAX_AGE_DAYS: number; NODE_ENV?: string }): FxPolicy {
  return { maxAgeDays: env.FX_MAX_AGE_DAYS, refuseStale: env.NODE_ENV === 'production' };
}
