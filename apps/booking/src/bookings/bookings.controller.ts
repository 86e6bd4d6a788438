import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { Observable, from, mergeMap } from 'rxjs';
import {
  BackendBookingPageChunk,
  BookingIdRequest,
  ListBackendBookingsRequest,
  BookingPageChunk,
  CancelView,
  CreateBookingReply,
  CreateBookingRequest,
  ListBookingsRequest,
  ListBookingsRequestV3,
  ListBackendBookingsRequestV3,
  TaggedBookingPageChunk,
  PrecancelView,
  FindRecordedBookingRequest,
  RecordedBooking,
  ReconciliationBookingPage,
  ReconciliationBookingsRequest,
  RenderVoucherRequest,
  RenderVoucherRequestV3,
  VoucherAnswer,
  SUBJECTS,
  VoucherPdf,
} from '@hotel/contracts';
import { Vouchers } from '../vouchers/vouchers';
import { BookingsService } from './bookings.service';

@Controller()
export class BookingsController {
  constructor(
    private readonly bookings: BookingsService,
    private readonly vouchers: Vouchers,
  ) {}

  /** Answers in several NATS messages: the tagged head, then the bookings as raw bytes (none when not modified). */
  @MessagePattern(SUBJECTS.BOOKING_BOOKING_LIST_V3)
  list(@Payload() request: ListBookingsRequestV3): Observable<TaggedBookingPageChunk> {
    return inMessages(this.bookings.list(request.actor, request.query, request.ifNoneMatch));
  }

  @MessagePattern(SUBJECTS.BOOKING_BACKEND_BOOKING_LIST_V3)
  backendList(@Payload() request: ListBackendBookingsRequestV3): Observable<TaggedBookingPageChunk> {
    return inMessages(this.bookings.backendList(request.actor, request.userId, request.query, request.ifNoneMatch));
  }

  /** v2, for the gateways of the previous release during a rolling upgrade (remove in the next): the head is `total` alone. */
  @MessagePattern(SUBJECTS.BOOKING_BOOKING_LIST)
  listV2(@Payload() request: ListBookingsRequest): Observable<BookingPageChunk> {
    return inMessages(this.bookings.list(request.actor, request.query).then(untagged));
  }

  /** v2, as listV2. */
  @MessagePattern(SUBJECTS.BOOKING_BACKEND_BOOKING_LIST)
  backendListV2(@Payload() request: ListBackendBookingsRequest): Observable<BackendBookingPageChunk> {
    return inMessages(this.bookings.backendList(request.actor, request.userId, request.query).then(untagged));
  }

  @MessagePattern(SUBJECTS.BOOKING_RECONCILIATION_LIST)
  reconciliation(@Payload() request: ReconciliationBookingsRequest): Promise<ReconciliationBookingPage> {
    return this.bookings.reconciliationBookings(request);
  }

  @MessagePattern(SUBJECTS.BOOKING_VOUCHER_RENDER)
  voucher(@Payload() request: RenderVoucherRequest): Promise<VoucherPdf> {
    return this.vouchers.render(request.bookingId, request.expires, request.signature);
  }

  @MessagePattern(SUBJECTS.BOOKING_VOUCHER_RENDER_V3)
  async voucherV3(@Payload() request: RenderVoucherRequestV3): Promise<VoucherAnswer> {
    const answer = await this.vouchers.answer(request.bookingId, request.expires, request.signature, request.ifNoneMatch);
    return answer.notModified ? { etag: answer.etag, notModified: true } : { etag: answer.etag, filename: answer.filename, pdfBase64: answer.pdfBase64 };
  }

  @MessagePattern(SUBJECTS.BOOKING_BOOKING_FIND_RECORDED)
  findRecorded(@Payload() request: FindRecordedBookingRequest): Promise<RecordedBooking> {
    return this.bookings.findRecorded(request);
  }

  @MessagePattern(SUBJECTS.BOOKING_BOOKING_PRECANCEL)
  precancel(@Payload() request: BookingIdRequest): Promise<PrecancelView> {
    return this.bookings.precancel(request.actor, request.bookingId);
  }

  @MessagePattern(SUBJECTS.BOOKING_BOOKING_CANCEL)
  cancel(@Payload() request: BookingIdRequest): Promise<CancelView> {
    return this.bookings.cancel(request.actor, request.bookingId);
  }

  @MessagePattern(SUBJECTS.BOOKING_BOOKING_CREATE)
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
