import { currencyDecimals, fitsCurrency, toMilli } from '@hotel/contracts';
import { DomainError } from './domain-error';

/**
 * Refuses an amount with more decimals than its currency has (a cent of yen, a tenth
 * of a cent of dollars) with 400 naming the field: request DTOs take up to three
 * decimals, and only the service knows the currency.
 */
export function requireAmountFits(field: string, amount: string | number, currency: string): void {
  if (fitsCurrency(toMilli(amount), currency)) return;
  const decimals = currencyDecimals(currency);
  throw DomainError.validation([
    { field, message: `${field} must have ${decimals === 0 ? 'no decimals' : `at most ${decimals} decimal${decimals === 1 ? '' : 's'}`} in ${currency}` },
  ]);
}
