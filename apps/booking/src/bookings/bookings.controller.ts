import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { Observable, from, mergeMap } from 'rxjs';
import { BackendBookingPageChunk, BookingIdRequest, BookingPageChunk, CancelView, Cancellation, CancellationQuote, CreateBookingReply, CreateBookingRequest, FindRecordedBookingRequest, ListBackendBookingsRequest, ListBackendBookingsRequestV3, ListBookingsRequest, ListBookingsRequestV4, bookingListFilterOf, OPERATIONS, PrecancelView, ReconciliationBookingPage, decimalToNumber, ReconciliationBookingsRequest, RecordedBooking, RenderVoucherRequest, RenderVoucherRequestV3, TaggedBookingPageChunk, VoucherAnswer, VoucherPdf } from '@hotel/contracts';
import { Vouchers } from '../vouchers/vouchers';
import { BookingsService } from './bookings.service';
import { Handles } from '@hotel/platform';

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

  @Handles(OPERATIONS.BOOKING_BACKEND_BOOKING_LIST_V3)
  backendList(@Payload() request: ListBackendBookingsRequestV3): Observable<TaggedBookingPageChunk> {
    return inMessages(this.bookings.backendList(request.actor, request.userId, request.query, request.ifNoneMatch));
  }

  /** v2, for the gateways of the previous release during a rolling upgrade (remove in the next): the head is `total` alone. */
  @Handles(OPERATIONS.BOOKING_BOOKING_LIST_V2)
  listV2(@Payload() request: ListBookingsRequest): Observable<BookingPageChunk> {
    return inMessages(this.bookings.list(request.actor, bookingListFilterOf(request.query)).then(untagged));
  }

  /** v2, as listV2. */
  @Handles(OPERATIONS.BOOKING_BACKEND_BOOKING_LIST)
  backendListV2(@Payload() request: ListBackendBookingsRequest): Observable<BackendBookingPageChunk> {
    return inMessages(this.bookings.backendList(request.actor, request.userId, request.query).then(untagged));
  }

  @Handles(OPERATIONS.BOOKING_RECONCILIATION_LIST)
  reconciliation(@Payload() request: ReconciliationBookingsRequest): Promise<ReconciliationBookingPage> {
    return this.bookings.reconciliationBookings(request);
  }

  @Handles(OPERATIONS.BOOKING_VOUCHER_RENDER)
  voucher(@Payload() request: RenderVoucherRequest): Promise<VoucherPdf> {
    return this.vouchers.render(request.bookingId, request.expires, request.signature);
  }

  @Handles(OPERATIONS.BOOKING_VOUCHER_RENDER_V3)
  async voucherV3(@Payload() request: RenderVoucherRequestV3): Promise<VoucherAnswer> {
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

  /** v2, for the gateways of the previous release during a rolling upgrade (remove in the next): the API's answer. */
  @Handles(OPERATIONS.BOOKING_BOOKING_PRECANCEL_V2)
  async precancelV2(@Payload() request: BookingIdRequest): Promise<PrecancelView> {
    const quote = await this.bookings.precancel(request.actor, request.bookingId);
    return { price_cancellation_penalty: decimalToNumber(quote.penalty), price_currency: quote.currency };
  }

  @Handles(OPERATIONS.BOOKING_BOOKING_CANCEL)
  cancel(@Payload() request: BookingIdRequest): Promise<Cancellation> {
    return this.bookings.cancel(request.actor, request.bookingId);
  }

  /** v2, for the gateways of the previous release during a rolling upgrade (remove in the next): the API's answer. */
  @Handles(OPERATIONS.BOOKING_BOOKING_CANCEL_V2)
  async cancelV2(@Payload() request: BookingIdRequest): Promise<CancelView> {
    const cancellation = await this.bookings.cancel(request.actor, request.bookingId);
    return { cancelled: cancellation.cancelled, cancellation_reference: cancellation.reference };
  }

  @Handles(OPERATIONS.BOOKING_BOOKING_CREATE)
  create(@Payload() request: CreateBookingRequest): Promise<CreateBookingReply> {
    return this.bookings.create(request);
  }
}

/** A page's chunks, one NATS message each. */
function inMessages<T>(chunks: Promise<T[]>): Observable<T> {
  return from(chunks).pipe(mergeMap((all) => from(all)));
}

/** A v3 page as v2 answered it: the head without its tag. */
function untagged(chunks: TaggedBookingPageChunk[]): BookingPageChunk[] {
  return chunks.map((chunk) => (chunk instanceof Uint8Array ? chunk : { total: chunk.total }));
}
