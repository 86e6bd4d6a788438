import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { Observable, from, mergeMap } from 'rxjs';
import {
  BookingIdRequest,
  Cancellation,
  CancellationQuote,
  BookingCreated,
  BookingOrderRequest,
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
}

/** A page's chunks, one NATS message each. */
function inMessages<T>(chunks: Promise<T[]>): Observable<T> {
  return from(chunks).pipe(mergeMap((all) => from(all)));
}

