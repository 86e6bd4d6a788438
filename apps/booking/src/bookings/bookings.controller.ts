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

  /** Answers in several NATS messages: the head, then the bookings as raw bytes. */
  @MessagePattern(SUBJECTS.BOOKING_BOOKING_LIST)
  list(@Payload() request: ListBookingsRequest): Observable<BookingPageChunk> {
    return from(this.bookings.list(request.actor, request.query)).pipe(mergeMap((chunks) => from(chunks)));
  }

  @MessagePattern(SUBJECTS.BOOKING_BACKEND_BOOKING_LIST)
  backendList(@Payload() request: ListBackendBookingsRequest): Observable<BackendBookingPageChunk> {
    return from(this.bookings.backendList(request.actor, request.userId, request.query)).pipe(mergeMap((chunks) => from(chunks)));
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
