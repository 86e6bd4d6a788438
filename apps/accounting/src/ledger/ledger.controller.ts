import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { AccountingEntryView, BalanceRequest, BalanceView, BookingEntriesRequest, CardPaymentRequest, CreateEntryRequest, CreditPolicyView, CreditRequestDecision, CreditRequestPage, CreditRequestView, EntryIdRequest, EntryPage, EntryPosted, FundsCheckReply, FundsCheckRequest, HoldRequest, HoldView, ListCreditRequestsRequest, ListEntriesRequest, OPERATIONS, PlaceHoldRequest, RefundRequest, SetCreditPolicyRequest } from '@hotel/contracts';
import { LedgerService } from './ledger.service';
import { Handles } from '@hotel/platform';

@Controller()
export class LedgerController {
  constructor(private readonly ledger: LedgerService) {}

  @Handles(OPERATIONS.ACCOUNTING_ENTRY_CREATE)
  create(@Payload() request: CreateEntryRequest): Promise<EntryPosted> {
    return this.ledger.createEntry(request.actor, request.entry, request.idempotencyKey);
  }

  @Handles(OPERATIONS.ACCOUNTING_ENTRY_LIST)
  list(@Payload() request: ListEntriesRequest): Promise<EntryPage> {
    return this.ledger.listEntries(request.actor, request.page, request.limit, request.filter);
  }

  @Handles(OPERATIONS.ACCOUNTING_ENTRY_GET)
  get(@Payload() request: EntryIdRequest): Promise<AccountingEntryView> {
    return this.ledger.getEntry(request.actor, request.id);
  }

  @Handles(OPERATIONS.ACCOUNTING_ENTRY_LIST_BY_BOOKING)
  forBooking(@Payload() request: BookingEntriesRequest): Promise<AccountingEntryView[]> {
    return this.ledger.entriesForBooking(request.actor, request.bookingId);
  }

  @Handles(OPERATIONS.ACCOUNTING_BALANCE_GET)
  balance(@Payload() request: BalanceRequest): Promise<BalanceView> {
    return this.ledger.balance(request.actor);
  }

  @Handles(OPERATIONS.ACCOUNTING_FUNDS_CHECK)
  checkFunds(@Payload() request: FundsCheckRequest): Promise<FundsCheckReply> {
    return this.ledger.checkFunds(request);
  }

  @Handles(OPERATIONS.ACCOUNTING_HOLD_PLACE)
  placeHold(@Payload() request: PlaceHoldRequest): Promise<HoldView> {
    return this.ledger.placeHold(request);
  }

  @Handles(OPERATIONS.ACCOUNTING_HOLD_CAPTURE)
  captureHold(@Payload() request: HoldRequest): Promise<HoldView> {
    return this.ledger.captureHold(request);
  }

  @Handles(OPERATIONS.ACCOUNTING_HOLD_RELEASE)
  releaseHold(@Payload() request: HoldRequest): Promise<HoldView> {
    return this.ledger.releaseHold(request);
  }

  @Handles(OPERATIONS.ACCOUNTING_CARD_PAYMENT_RECORD)
  recordCardPayment(@Payload() request: CardPaymentRequest): Promise<AccountingEntryView[]> {
    return this.ledger.recordCardPayment(request);
  }

  @Handles(OPERATIONS.ACCOUNTING_CREDIT_POLICY_SET)
  setCreditPolicy(@Payload() request: SetCreditPolicyRequest): Promise<CreditPolicyView> {
    return this.ledger.setCreditPolicy(request);
  }

  @Handles(OPERATIONS.ACCOUNTING_CREDIT_REQUEST_LIST)
  creditRequests(@Payload() request: ListCreditRequestsRequest): Promise<CreditRequestPage> {
    return this.ledger.listCreditRequests(request.actor, request.status, request.page, request.limit);
  }

  @Handles(OPERATIONS.ACCOUNTING_CREDIT_REQUEST_CONFIRM)
  confirm(@Payload() request: CreditRequestDecision): Promise<CreditRequestView> {
    return this.ledger.decideCreditRequest(request.actor, request.id, 'confirmed');
  }

  @Handles(OPERATIONS.ACCOUNTING_CREDIT_REQUEST_REJECT)
  reject(@Payload() request: CreditRequestDecision): Promise<CreditRequestView> {
    return this.ledger.decideCreditRequest(request.actor, request.id, 'rejected');
  }

  @Handles(OPERATIONS.ACCOUNTING_REFUND_CREATE)
  refund(@Payload() request: RefundRequest): Promise<AccountingEntryView> {
    return this.ledger.refund(request);
  }
}
