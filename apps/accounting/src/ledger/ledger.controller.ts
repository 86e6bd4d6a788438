import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AccountingEntryView,
  BalanceRequest,
  BalanceView,
  BookingEntriesRequest,
  CardPaymentRequest,
  CreateEntryRequest,
  CreditPolicyView,
  CreditRequestDecision,
  CreditRequestPage,
  CreditRequestView,
  EntryIdRequest,
  EntryPosted,
  EntryPage,
  FundsCheckReply,
  FundsCheckRequest,
  HoldRequest,
  HoldView,
  ListCreditRequestsRequest,
  ListEntriesRequest,
  PlaceHoldRequest,
  RefundRequest,
  SUBJECTS,
  SetCreditPolicyRequest,
} from '@hotel/contracts';
import { LedgerService } from './ledger.service';

@Controller()
export class LedgerController {
  constructor(private readonly ledger: LedgerService) {}

  @MessagePattern(SUBJECTS.ACCOUNTING_ENTRY_CREATE)
  create(@Payload() request: CreateEntryRequest): Promise<EntryPosted> {
    return this.ledger.createEntry(request.actor, request.entry, request.idempotencyKey);
  }

  @MessagePattern(SUBJECTS.ACCOUNTING_ENTRY_LIST)
  list(@Payload() request: ListEntriesRequest): Promise<EntryPage> {
    return this.ledger.listEntries(request.actor, request.page, request.limit, request.filter);
  }

  @MessagePattern(SUBJECTS.ACCOUNTING_ENTRY_GET)
  get(@Payload() request: EntryIdRequest): Promise<AccountingEntryView> {
    return this.ledger.getEntry(request.actor, request.id);
  }

  @MessagePattern(SUBJECTS.ACCOUNTING_ENTRY_LIST_BY_BOOKING)
  forBooking(@Payload() request: BookingEntriesRequest): Promise<AccountingEntryView[]> {
    return this.ledger.entriesForBooking(request.actor, request.bookingId);
  }

  @MessagePattern(SUBJECTS.ACCOUNTING_BALANCE_GET)
  balance(@Payload() request: BalanceRequest): Promise<BalanceView> {
    return this.ledger.balance(request.actor);
  }

  @MessagePattern(SUBJECTS.ACCOUNTING_FUNDS_CHECK)
  checkFunds(@Payload() request: FundsCheckRequest): Promise<FundsCheckReply> {
    return this.ledger.checkFunds(request);
  }

  @MessagePattern(SUBJECTS.ACCOUNTING_HOLD_PLACE)
  placeHold(@Payload() request: PlaceHoldRequest): Promise<HoldView> {
    return this.ledger.placeHold(request);
  }

  @MessagePattern(SUBJECTS.ACCOUNTING_HOLD_CAPTURE)
  captureHold(@Payload() request: HoldRequest): Promise<HoldView> {
    return this.ledger.captureHold(request);
  }

  @MessagePattern(SUBJECTS.ACCOUNTING_HOLD_RELEASE)
  releaseHold(@Payload() request: HoldRequest): Promise<HoldView> {
    return this.ledger.releaseHold(request);
  }

  @MessagePattern(SUBJECTS.ACCOUNTING_CARD_PAYMENT_RECORD)
  recordCardPayment(@Payload() request: CardPaymentRequest): Promise<AccountingEntryView[]> {
    return this.ledger.recordCardPayment(request);
  }

  @MessagePattern(SUBJECTS.ACCOUNTING_CREDIT_POLICY_SET)
  setCreditPolicy(@Payload() request: SetCreditPolicyRequest): Promise<CreditPolicyView> {
    return this.ledger.setCreditPolicy(request);
  }

  @MessagePattern(SUBJECTS.ACCOUNTING_CREDIT_REQUEST_LIST)
  creditRequests(@Payload() request: ListCreditRequestsRequest): Promise<CreditRequestPage> {
    return this.ledger.listCreditRequests(request.actor, request.status, request.page, request.limit);
  }

  @MessagePattern(SUBJECTS.ACCOUNTING_CREDIT_REQUEST_CONFIRM)
  confirm(@Payload() request: CreditRequestDecision): Promise<CreditRequestView> {
    return this.ledger.decideCreditRequest(request.actor, request.id, 'confirmed');
  }

  @MessagePattern(SUBJECTS.ACCOUNTING_CREDIT_REQUEST_REJECT)
  reject(@Payload() request: CreditRequestDecision): Promise<CreditRequestView> {
    return this.ledger.decideCreditRequest(request.actor, request.id, 'rejected');
  }

  @MessagePattern(SUBJECTS.ACCOUNTING_REFUND_CREATE)
  refund(@Payload() request: RefundRequest): Promise<AccountingEntryView> {
    return this.ledger.refund(request);
  }
}
