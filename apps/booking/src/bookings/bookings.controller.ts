import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { Observable, from, mergeMap } from 'rxjs';
import {
  BookingIdRequest,
  Cancellation,
  CancellationQuote,
  BookingCreated,
  CreateBookingReply,
  bookingAnswer,
  CreateBookingRequest,
  BookingOrderRequest,
  bookRequestFingerprint,
  bookingOrderOf,
  inBookApiWords,
  isOwnBookRefusal,
  FindRecordedBookingRequest,
  ListBackendBookingsRequestV3,
  ListBookingsRequestV4,
  OPERATIONS,
  ReconciliationBookingPage,
  ReconciliationBookingsRequest,
  RecordedBooking,
  RenderVoucherRequestV3,
  TaggedBookingPageChunk,
  VoucherAnswer,
} from '@hotel/contracts';
import { Vouchers } from '../vouchers/vouchers';
import { BookingsService } from './bookings.service';
import { DomainError, Handles } from '@hotel/platform';

@Controller()
export class BookingsController {
  constructor(
    private readonly bookings: BookingsService,
    private readonly vouchers: Vouchers,
  ) {}

  /** Answers in several NATS messages: the tagged head, then the bookings as raw bytes (none when not modified). */
  @Handles(OPERATIONS.BOOKING_BOOKING_LIST)
  list(@Payload() request: ListBookingsRequestV4): Observable<TaggedBookingPageChunk> {
    return inMessages(this.bookings.list(request.actor, request.filter, request.ifNoneMatch));
  }

  @Handles(OPERATIONS.BOOKING_BACKEND_BOOKING_LIST)
  backendList(@Payload() request: ListBackendBookingsRequestV3): Observable<TaggedBookingPageChunk> {
    return inMessages(this.bookings.backendList(request.actor, request.userId, request.query, request.ifNoneMatch));
  }

  @Handles(OPERATIONS.BOOKING_RECONCILIATION_LIST)
  reconciliation(@Payload() request: ReconciliationBookingsRequest): Promise<ReconciliationBookingPage> {
    return this.bookings.reconciliationBookings(request);
  }

  @Handles(OPERATIONS.BOOKING_VOUCHER_RENDER)
  async voucher(@Payload() request: RenderVoucherRequestV3): Promise<VoucherAnswer> {
    const answer = await this.vouchers.answer(request.bookingId, request.expires, request.signature, request.ifNoneMatch);
    return answer.notModified ? { etag: answer.etag, notModified: true } : { etag: answer.etag, filename: answer.filename, pdfBase64: answer.pdfBase64 };
  }

  @Handles(OPERATIONS.BOOKING_BOOKING_FIND_RECORDED)
  findRecorded(@Payload() request: FindRecordedBookingRequest): Promise<RecordedBooking> {
    return this.bookings.findRecorded(request);
  }

  @Handles(OPERATIONS.BOOKING_BOOKING_PRECANCEL)
  precancel(@Payload() request: BookingIdRequest): Promise<CancellationQuote> {
    return this.bookings.precancel(request.actor, request.bookingId);
  }

  @Handles(OPERATIONS.BOOKING_BOOKING_CANCEL)
  cancel(@Payload() request: BookingIdRequest): Promise<Cancellation> {
    return this.bookings.cancel(request.actor, request.bookingId);
  }

  @Handles(OPERATIONS.BOOKING_BOOKING_CREATE)
  create(@Payload() request: BookingOrderRequest): Promise<BookingCreated> {
    return this.bookings.create(request);
  }

  /** v2, for the gateways of the previous release during a rolling upgrade (remove in the next): the API's body and Booking, and its refusals in the API's words. */
  @Handles(OPERATIONS.BOOKING_BOOKING_CREATE_V2)
  async createV2(@Payload() request: CreateBookingRequest): Promise<CreateBookingReply> {
    const { body, ...selector } = request;
    try {
      const created = await this.bookings.create({ ...selector, order: bookingOrderOf(body), fingerprint: bookRequestFingerprint(request) });
      return { booking: bookingAnswer(created.booking), replayed: created.replayed };
    } catch (error) {
      throw error instanceof DomainError && isOwnBookRefusal(error.code) ? error.reworded(inBookApiWords) : error;
    }
  }
}

/** A page's chunks, one NATS message each. */
function inMessages<T>(chunks: Promise<T[]>): Observable<T> {
  return from(chunks).pipe(mergeMap((all) => from(all)));
}

