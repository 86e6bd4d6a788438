import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import {
  AccountingEntryView,
  Actor,
  BalanceView,
  CardPaymentRequest,
  ClientAccountTerms,
  CreditPolicyView,
  CreditRequestPage,
  CreditRequestStatus,
  CreditRequestView,
  EntryPage,
  EntryPosted,
  FINANCE_NO_CLIENT,
  FundsCheckReply,
  FundsCheckRequest,
  LedgerFilter,
  HoldRequest,
  HoldView,
  NewAccountingEntry,
  PlaceHoldRequest,
  RefundRequest,
  SUBJECTS,
  SelfCreditPolicy,
  SetCreditPolicyRequest,
  currencyDecimals,
  fitsCurrency,
  milliToDecimal,
  toMilli,
  toMilliBig,
  toDecimalString,
} from '@hotel/contracts';
import { APP_METRICS, AppMetrics, DomainError, SERVICE_CLIENT, ServiceClient, requireFinance, requireLedgerReader } from '@hotel/platform';
import { LedgerRepository, toHoldView } from './ledger.repository';

const INSUFFICIENT = () => new DomainError('INSUFFICIENT_FUNDS', 'insufficient funds');

/**
 * The self-credit policy an account opens with: that of the newest default in force
 * when its client was created; `immediate` for a client created before every one (the
 * platform's first policy). `defaults` oldest first.
 */
export function selfCreditPolicyFor(clientCreatedAt: string | undefined, defaults: readonly { selfCredits: SelfCreditPolicy; since: Date }[]): SelfCreditPolicy {
  const created = new Date(clientCreatedAt ?? NaN).getTime();
  // A client whose creation time is not known gets the strictest policy, never the laxest.
  if (!Number.isFinite(created)) return 'pending';
  let policy: SelfCreditPolicy = 'immediate';
  for (const item of defaults) if (item.since.getTime() <= created) policy = item.selfCredits;
  return policy;
}

/**
 * Booking money moves only in the account's currency and its minor unit: a price in
 * another (a caller priced with out-of-date terms) is refused, and the booking fails
 * with nothing held, debited or credited.
 */
function requireAccountCurrency(request: { clientId: number; currency: string; amount: string }, accountCurrency: string): void {
  if (request.currency !== accountCurrency) {
    throw new DomainError(
      'CURRENCY_MISMATCH',
      `the price is in ${request.currency} but the account of client ${request.clientId} is in ${accountCurrency}: nothing was booked or charged; prebook again`,
    );
  }
  if (!fitsCurrency(toMilli(request.amount), accountCurrency)) {
    throw new DomainError('CURRENCY_MISMATCH', `${request.amount} has more decimals than ${accountCurrency} allows: nothing was booked or charged`);
  }
}

/**
 * The money fields of a request that have more decimals than the account's currency
 * allows (JPY none, USD two, KWD three), as field errors. The gateway's validation takes
 * three decimals at most; only the ledger knows the account's currency.
 */
export function amountsOutsideCurrency(currency: string, amounts: Record<string, number | string>): { field: string; message: string }[] {
  const decimals = currencyDecimals(currency);
  return Object.entries(amounts)
    .filter(([, amount]) => !fitsCurrency(toMilli(amount), currency))
    .map(([field]) => ({ field, message: `${field} must have ${decimals === 0 ? 'no decimals' : `at most ${decimals} decimals`} in ${currency}, the account's currency` }));
}

/**
 * The finance team's system of record. Available funds = credit limit + credits
 * − debits − active holds, written once, as the SQL function
 * accounting.available_funds. Every change to a client's money locks that
 * client's account row first, so concurrent holds are checked one after another
 * and can never take available funds below zero.
 */
@Injectable()
export class LedgerService {
  /**
   * Accounts known to exist, with their currency. Accounts are opened and never
   * removed, and an account's currency never changes, so remembering them is safe in
   * every replica; it saves a query per call.
   */
  private readonly openAccounts = new Map<number, string>();
  /** The self-credit defaults (written by migrations only: read once). */
  private selfCreditDefaults?: Promise<{ selfCredits: SelfCreditPolicy; since: Date }[]>;

  constructor(
    private readonly ledger: LedgerRepository,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    @Inject(APP_METRICS) metrics: AppMetrics,
  ) {
    metrics.gauge('hotel_holds_open', 'Holds placed for bookings and neither captured nor released yet', async (gauge) => gauge.set(await this.ledger.countActiveHolds()));
  }

  /**
   * A manual entry: by the client's backend token for its own client, or by the finance
   * credential for any. Under the client's `pending` credit policy a credit its own
   * token posts becomes a credit request instead, which moves no money until the
   * finance team confirms it.
   */
  async createEntry(actor: Actor, entry: NewAccountingEntry, idempotencyKey?: string): Promise<EntryPosted> {
    if (actor.role !== 'finance') {
      requireLedgerReader(actor, 'accounting');
      if (entry.clientId !== actor.clientId) throw new DomainError('FORBIDDEN', 'clientId must be the authenticated client');
    }
    const currency = await this.ensureAccount(entry.clientId);
    const outside = amountsOutsideCurrency(currency, { debit: entry.debit, credit: entry.credit });
    if (outside.length) throw DomainError.validation(outside);
    const manual = {
      clientId: entry.clientId,
      debit: toDecimalString(entry.debit),
      credit: toDecimalString(entry.credit),
      name: entry.name,
      bookingId: entry.bookingId,
      ccPaymentId: entry.ccPaymentId,
      userId: entry.userId,
      bankPaymentId: entry.bankPaymentId,
    };
    const asRequest = actor.role === 'backend' && toMilli(manual.credit) > 0 && (await this.ledger.selfCreditPolicy(entry.clientId)) === 'pending';
    if (idempotencyKey) {
      // The entry as posted (amounts as exact decimals): the same post again is the same fingerprint.
      const fingerprint = createHash('sha256').update(JSON.stringify([actor.role, manual.debit, manual.credit, manual.name, manual.bookingId ?? null, manual.ccPaymentId ?? null, manual.userId ?? null, manual.bankPaymentId ?? null])).digest('base64url');
      return this.ledger.postManualOnce(manual, asRequest, { key: idempotencyKey, fingerprint });
    }
    if (asRequest) return { entry: null, creditRequest: await this.ledger.createCreditRequest(manual) };
    return { entry: await this.ledger.appendManualEntry(manual), creditRequest: null };
  }

  /** The queue: a client's own requests, or for the finance credential one client's or (naming none) every client's. */
  async listCreditRequests(actor: Actor, status: CreditRequestStatus | undefined, page: number, limit: number): Promise<CreditRequestPage> {
    const everyClient = actor.role === 'finance' && actor.clientId === FINANCE_NO_CLIENT;
    const clientId = everyClient ? null : requireLedgerReader(actor, 'credit requests');
    return this.ledger.listCreditRequests(clientId, status ?? null, page, limit);
  }

  /** Confirms (the entry is appended, once) or rejects a pending credit request: the finance team's call. A repeat answers the same. */
  async decideCreditRequest(actor: Actor, id: number, decision: 'confirmed' | 'rejected'): Promise<CreditRequestView> {
    requireFinance(actor, 'deciding a credit request');
    const request = await this.ledger.decideCreditRequest(actor.clientId === FINANCE_NO_CLIENT ? null : actor.clientId, id, decision);
    if (!request) throw DomainError.notFound(`credit request ${id}`);
    if (request.status !== decision) throw new DomainError('CONFLICT', `credit request ${id} was ${request.status} already`);
    return request;
  }

  async setCreditPolicy(request: SetCreditPolicyRequest): Promise<CreditPolicyView> {
    await this.ensureAccount(request.clientId);
    await this.ledger.setSelfCreditPolicy(request.clientId, request.selfCredits);
    return { clientId: request.clientId, selfCredits: request.selfCredits };
  }

  async listEntries(actor: Actor, page: number, limit: number, filter?: LedgerFilter): Promise<EntryPage> {
    const { entries, total } = await this.ledger.listEntries(requireLedgerReader(actor, 'accounting'), page, limit, filter);
    return { entries, total, page, limit };
  }

  async getEntry(actor: Actor, id: number): Promise<AccountingEntryView> {
    const entry = await this.ledger.findEntry(requireLedgerReader(actor, 'accounting'), id);
    if (!entry) throw DomainError.notFound(`accounting entry ${id}`);
    return entry;
  }

  async entriesForBooking(actor: Actor, bookingId: number): Promise<AccountingEntryView[]> {
    return this.ledger.entriesForBooking(requireLedgerReader(actor, 'accounting'), bookingId);
  }

  async balance(actor: Actor): Promise<BalanceView> {
    const clientId = requireLedgerReader(actor, 'accounting');
    await this.ensureAccount(clientId);
    return (await this.ledger.balance(clientId))!;
  }

  /** Advisory (prebook): would the client, and the user within their limit, cover this amount now? Same rule as the hold. */
  async checkFunds(request: FundsCheckRequest): Promise<FundsCheckReply> {
    requireAccountCurrency(request, await this.ensureAccount(request.clientId));
    const check = (await this.ledger.checkFunds(request.clientId, request.userId ?? null, request.amount, request.userLimit ?? null))!;
    return { sufficient: check.sufficient, available: milliToDecimal(toMilliBig(check.available)) };
  }

  /** Reserves an account booking's price; a repeat for the same booking returns the same hold. */
  async placeHold(request: PlaceHoldRequest): Promise<HoldView> {
    requireAccountCurrency(request, await this.ensureAccount(request.clientId));
    const amount = milliToDecimal(toMilli(request.amount));
    const { outcome, hold } = await this.ledger.placeHold(request.clientId, request.bookingId, request.userId ?? null, amount, request.userLimit ?? null);
    if (outcome === 'insufficient') throw INSUFFICIENT();
    if (outcome === 'no_account') throw DomainError.notFound(`account of client ${request.clientId}`);
    if (outcome === 'existing' && toMilli(hold!.amount) !== toMilli(amount)) {
      throw new DomainError('CONFLICT', `booking ${request.bookingId} already holds ${hold!.amount}`);
    }
    return toHoldView(hold!);
  }

  /** Turns a booking's hold into its debit entry (once). */
  async captureHold(request: HoldRequest): Promise<HoldView> {
    const { outcome, hold } = await this.ledger.captureHold(request.clientId, request.bookingId, request.name ?? `Booking ${request.bookingId}`);
    if (outcome === 'not_found') throw DomainError.notFound(`hold for booking ${request.bookingId}`);
    if (hold!.status === 'released') throw new DomainError('CONFLICT', `the hold for booking ${request.bookingId} was released`);
    return toHoldView(hold!);
  }

  /** Gives a booking's held amount back (a failed booking); releasing twice is harmless. */
  async releaseHold(request: HoldRequest): Promise<HoldView> {
    const hold = await this.ledger.releaseHold(request.clientId, request.bookingId);
    if (!hold) return { bookingId: request.bookingId, amount: '0.00', status: 'released', entryId: null };
    if (hold.status === 'captured') throw new DomainError('CONFLICT', `the hold for booking ${request.bookingId} was captured`);
    return toHoldView(hold);
  }

  /** A card booking: the debit and the card's matching credit (the account balance does not move); once per booking. */
  async recordCardPayment(request: CardPaymentRequest): Promise<AccountingEntryView[]> {
    requireAccountCurrency(request, await this.ensureAccount(request.clientId));
    const common = { bookingId: request.bookingId, userId: request.userId ?? null, ccPaymentId: request.ccPaymentId };
    return this.ledger.appendBookingEntries(request.clientId, [
      { ...common, kind: 'card_charge', debit: request.amount, credit: '0', name: request.name },
      { ...common, kind: 'card_payment', debit: '0', credit: request.amount, name: `Card payment ${request.ccPaymentId}` },
    ]);
  }

  /** The credit for a cancelled booking; written once per booking. */
  async refund(request: RefundRequest): Promise<AccountingEntryView> {
    requireAccountCurrency(request, await this.ensureAccount(request.clientId));
    const [entry] = await this.ledger.appendBookingEntries(request.clientId, [
      { kind: 'booking_refund', debit: '0', credit: request.amount, name: request.name, bookingId: request.bookingId, userId: request.userId ?? null },
    ]);
    return entry;
  }

  /**
   * Accounts open on first use with the client's credit terms from the users service,
   * and the self-credit policy of the day the client was created. The account's currency.
   */
  async ensureAccount(clientId: number): Promise<string> {
    const known = this.openAccounts.get(clientId);
    if (known) return known;
    let currency = await this.ledger.accountCurrency(clientId);
    if (currency === null) {
      const terms = await this.services.send(SUBJECTS.USERS_CLIENT_GET, { clientId });
      await this.ledger.openAccount(terms, await this.openingPolicy(terms));
      // As the account is now: another replica may have opened it first.
      currency = (await this.ledger.accountCurrency(clientId))!;
    }
    this.openAccounts.set(clientId, currency);
    return currency;
  }

  private async openingPolicy(terms: ClientAccountTerms): Promise<SelfCreditPolicy> {
    this.selfCreditDefaults ??= this.ledger.selfCreditDefaults();
    try {
      return selfCreditPolicyFor(terms.createdAt, await this.selfCreditDefaults);
    } catch (error) {
      this.selfCreditDefaults = undefined;
      throw error;
    }
  }
}
