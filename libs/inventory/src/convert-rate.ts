import { CancellationPolicyData, HotelRate, HotelRateRoom, milliPerMinorUnit, milliToNumber, scaleToCurrency, toMilli } from '@hotel/contracts';
import { FxConversion } from './fx';

type PricedRate = Omit<HotelRate, 'id'>;

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/**
 * A vendor's rate in the client's currency. The price for the stay is the vendor's
 * price converted (`price_chargeable` = vendor price × rate, rounded once), and the
 * breakdown adds up to it: each room's night is converted, and what rounding the
 * nights one by one left over (a few minor units at most) goes to the last nights, so
 * nights, rooms and the total agree as they do at the vendor. Fees, deposits,
 * commission and penalties are converted one by one; a penalty is never more than the
 * converted price, and a penalty of the whole price stays the whole price.
 */
export function convertRate(rate: PricedRate, conversion: FxConversion): PricedRate {
  if (conversion.identity) return rate;
  const currency = conversion.to;
  const convert = (amount: number) => conversion.convert(toMilli(amount));
  const money = (milli: number) => milliToNumber(milli);
  const nights = rate.price_per_night.length;
  const roomCount = rate.rooms.length;

  // The nights × rooms grid in thousandths of the client's currency, then the residue.
  const grid = rate.price_per_night_per_room.map((night) => night.map(convert));
  const vendorTotal = toMilli(rate.price_chargeable);
  const total = conversion.convert(vendorTotal);
  distribute(grid, total - sum(grid.map(sum)), milliPerMinorUnit(currency));

  const perRoom = Array.from({ length: roomCount }, (_, room) => sum(grid.map((night) => night[room])));
  const perNight = grid.map(sum);
  const rooms = rate.rooms.map((room, index): HotelRateRoom => {
    const chargeable = perRoom[index];
    const fees = convert(room.price_fees);
    const due = convert(room.price_due_at_hotel);
    return {
      ...room,
      price_per_night_avg: money(scaleToCurrency(chargeable, 1n, BigInt(nights), currency)),
      price_per_night: grid.map((night) => money(night[index])),
      price_chargeable: money(chargeable),
      price_per_room: money(chargeable),
      price_before_fees: money(chargeable - fees),
      price_fees: money(fees),
      price_due_at_hotel: money(due),
      price_inclusive: money(chargeable + due),
      price_currency: currency,
      fees: room.fees.map((fee) => ({ ...fee, price: money(convert(fee.price)), price_currency: currency })),
      deposit_per_accomodation_per_night: money(convert(room.deposit_per_accomodation_per_night)),
      deposit_currency: currency,
    };
  });
  const fees = sum(rooms.map((room) => toMilli(room.price_fees)));
  const due = sum(rooms.map((room) => toMilli(room.price_due_at_hotel)));
  return {
    ...rate,
    rooms,
    price_per_night_avg: money(scaleToCurrency(total, 1n, BigInt(nights), currency)),
    price_per_night: perNight.map(money),
    price_chargeable: money(total),
    price_per_room: perRoom.map(money),
    price_per_night_per_room: grid.map((night) => night.map(money)),
    price_before_fees: money(total - fees),
    price_fees: money(fees),
    price_due_at_hotel: money(due),
    price_inclusive: money(total + due),
    price_currency: currency,
    price_retail: money(convert(rate.price_retail)),
    cancellation_policy_data: rate.cancellation_policy_data.map(
      (period): CancellationPolicyData => ({
        ...period,
        // A penalty of the whole price (non-refundable, the last day) is the whole converted price.
        price_cancellation_penalty: money(toMilli(period.price_cancellation_penalty) >= vendorTotal ? total : Math.min(total, convert(period.price_cancellation_penalty))),
        price_currency: currency,
      }),
    ),
    elite: rate.elite ? { ...rate.elite, price_property_credit: money(convert(rate.elite.price_property_credit)), price_property_credit_currency: currency } : null,
    price_commission: money(convert(rate.price_commission)),
    price_commission_currency: currency,
  };
}

/**
 * Adds `residue` (thousandths, a multiple of `step`) to the grid one minor unit at a
 * time, from the last night of the last room backwards, so no cell moves by more than
 * a unit or two.
 */
function distribute(grid: number[][], residue: number, step: number): void {
  const cells = grid.flatMap((night, n) => night.map((_, r) => [n, r] as const)).reverse();
  if (cells.length === 0 || residue === 0) return;
  const unit = residue > 0 ? step : -step;
  for (let left = residue, i = 0; left !== 0; left -= unit, i = (i + 1) % cells.length) {
    const [n, r] = cells[i];
    grid[n][r] += unit;
  }
}
