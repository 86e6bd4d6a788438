import { IsString, Matches, MaxLength, MinLength } from 'class-validator';

/**
 * One day's euro foreign exchange reference rates, as the European Central Bank
 * publishes them (its daily file, `eurofxref-daily.xml`): how many units of each
 * currency one euro buys. The rates service owns them; every price the platform
 * converts is converted at a set of these.
 */
export interface FxRateSet {
  /** The ECB's reference date (YYYY-MM-DD). */
  date: string;
  /** Units per euro by ISO 4217 code, as the ECB writes them ("1.0975", "117.92"). EUR itself is 1 and not listed. */
  rates: Record<string, string>;
  /** Where the set came from: `snapshot` (shipped with the platform), `file:<name>` (import-fx-rates) or the URL it was fetched from. */
  source: string;
  /** When the platform took the set in (ISO 8601): prices converted from then on may use it. */
  importedAt: string;
}

/** rates.fx-rates.get.v1: the sets a converter needs. */
export class GetFxRatesRequest {}

export interface FxRatesReply {
  /**
   * The set in force (the newest reference date) first, then older ones of at most the
   * last 40 reference dates, newest first: a price the client saw yesterday is
   * recomputed at the rates it was shown at.
   */
  sets: FxRateSet[];
}

/** rates.fx-rates.import.v1 (admin command line, and the rates service's own daily refresh): a file in the ECB's daily format. */
export class ImportFxRatesRequest {
  @IsString()
  @MinLength(1)
  @MaxLength(1_000_000)
  xml: string;

  /** Where the file came from, kept with the set (`file:<name>`). */
  @IsString()
  @Matches(/^\S.{0,199}$/, { message: 'source must be 1 to 200 characters' })
  source: string;
}

export interface ImportFxRatesReply {
  /** The set the file holds. */
  set: FxRateSet;
  /** False when that reference date was there already (with the same rates). */
  imported: boolean;
  /** The set in force afterwards. */
  inForce: FxRateSet;
}

/** events.rates.fx-rates-updated.v1: a new set was taken in; converters ask for the sets again. */
export interface FxRatesUpdatedEvent {
  date: string;
}

/**
 * How one booking's price came to be in its client's currency: the vendor's net
 * price in the vendor's currency, and the rate that converted it, fixed at prebook.
 * `fxRate` = client currency per vendor currency, margin included; 1 when both are
 * the same and there is no margin.
 */
export interface BookingFx {
  vendorCurrency: string;
  /** The vendor's price for the stay, before any promo discount, in vendorCurrency. */
  vendorPrice: string;
  /** Units of the client's currency per unit of the vendor's, with the FX margin, as a decimal string (10 significant digits). */
  fxRate: string;
  /** The ECB reference date of the rates used; null when no conversion was needed. */
  fxRateDate: string | null;
  /** The client's FX margin at prebook, in percent ("0", "1.5"). */
  fxMarginPercent: string;
}

const DAY_MS = 86_400_000;

/** Easter Sunday of a year (the Gregorian computus), as days since 1970-01-01. */
function easterSunday(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

/**
 * The TARGET closing days on which the ECB publishes no reference rates besides
 * weekends: New Year's Day, Good Friday, Easter Monday, 1 May, 25 and 26 December.
 */
function isTargetHoliday(dayNumber: number): boolean {
  const date = new Date(dayNumber * DAY_MS);
  const month = date.getUTCMonth() + 1;
  const day = date.getUTCDate();
  if ((month === 1 && day === 1) || (month === 5 && day === 1) || (month === 12 && (day === 25 || day === 26))) return true;
  const easter = easterSunday(date.getUTCFullYear());
  return dayNumber === easter - 2 || dayNumber === easter + 1;
}

/**
 * How old a set of rates is, in whole days from its reference date (YYYY-MM-DD) to
 * now, leaving out the TARGET holidays on which no newer rates could be published
 * (Thursday's rates are 3 days old on the Tuesday after Easter, as Friday's are on a
 * Monday): a long weekend is no reason to stop selling.
 */
export function fxRatesAgeDays(date: string, now = Date.now()): number {
  const from = Date.parse(`${date}T00:00:00Z`) / DAY_MS;
  const today = Math.floor(now / DAY_MS);
  let holidays = 0;
  for (let day = from + 1; day <= today && day - from <= 366; day++) if (isTargetHoliday(day)) holidays++;
  return Math.floor((now - from * DAY_MS) / DAY_MS) - holidays;
}
