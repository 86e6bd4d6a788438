import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash, timingSafeEqual } from 'node:crypto';
import { DataSource } from 'typeorm';
import { SUBJECTS, VoucherAnswer, VoucherPdf, matchesEntityTag } from '@hotel/contracts';
import { DomainError, SERVICE_CLIENT, SERVICE_ENV, ServiceClient, rowsOf } from '@hotel/platform';
import { BookingEnv } from '../booking.env';
import { BookingEntity } from '../bookings/booking.entity';
import { BookingsRepository } from '../bookings/bookings.repository';
import { voucherSignature, voucherUrl } from './voucher-links';
import { VoucherExtras, voucherPdf } from './voucher-pdf';

/**
 * Vouchers: a signed link that expires (so it can be handed to the traveller
 * without a credential), and the PDF behind it, made from the booking and the name of
 * the agency (the client) it was booked through. A link to a booking cancelled since
 * serves a voucher that says it is cancelled.
 */
@Injectable()
export class Vouchers {
  private readonly logger = new Logger('Vouchers');

  constructor(
    private readonly bookings: BookingsRepository,
    @Inject(SERVICE_ENV) private readonly env: BookingEnv,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
  ) {}

  url(bookingId: number, now = Date.now()): string {
    return voucherUrl(this.env, bookingId, now);
  }

  /**
   * The PDF and its entity tag (a digest of what it prints: one per version of the
   * booking), rendered once and kept in booking.voucher_pdfs; for a client whose
   * If-None-Match names the version, only the tag.
   */
  async answer(bookingId: number, expires: string, signature: string, ifNoneMatch?: string): Promise<VoucherAnswer & VoucherPdf> {
    const notFound = () => DomainError.notFound('voucher');
    const expected = Buffer.from(voucherSignature(this.env, bookingId, Number(expires)));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw notFound();
    if (Number(expires) * 1000 < Date.now()) throw notFound();
    const booking = await this.bookings.find(bookingId);
    if (!booking || (booking.status !== 'confirmed' && booking.status !== 'cancelled')) throw notFound();
    const extras = { agency: await this.agencyOf(booking.clientId) };
    const version = versionOf(booking, extras);
    const etag = `"${version}"`;
    if (ifNoneMatch !== undefined && matchesEntityTag(ifNoneMatch, etag)) return { etag, notModified: true, filename: '', pdfBase64: '' };
    const filename = booking.status === 'cancelled' ? `voucher-${booking.id}-cancelled.pdf` : `voucher-${booking.id}.pdf`;
    return { etag, filename, pdfBase64: (await this.pdf(booking, extras, version)).toString('base64') };
  }

  /** The client's name; none when the users service cannot say (the voucher is printed without it, and again once it can). */
  private async agencyOf(clientId: number): Promise<string | null> {
    try {
      return (await this.services.send(SUBJECTS.USERS_CLIENT_GET, { clientId })).name ?? null;
    } catch (error) {
      this.logger.warn({ msg: "a voucher is printed without its agency's name", clientId, error: String(error) });
      return null;
    }
  }

  /** The kept PDF of this version, or one rendered now and kept (the first of two replicas rendering at once keeps its own). */
  private async pdf(booking: BookingEntity, extras: VoucherExtras, version: string): Promise<Buffer> {
    const [kept] = rowsOf<{ pdf: Buffer }>(await this.dataSource.query('SELECT pdf FROM booking.voucher_pdfs WHERE booking_id = $1 AND version = $2', [booking.id, version]));
    if (kept) return kept.pdf;
    const pdf = await voucherPdf(booking, extras);
    await this.dataSource.query(
      `INSERT INTO booking.voucher_pdfs (booking_id, version, pdf) VALUES ($1, $2, $3)
       ON CONFLICT (booking_id) DO UPDATE SET version = EXCLUDED.version, pdf = EXCLUDED.pdf, rendered_at = now() WHERE booking.voucher_pdfs.version <> EXCLUDED.version`,
      [booking.id, version, pdf],
    );
    return pdf;
  }
}

/** What the voucher prints, as a digest: a new one whenever the booking shown changes (and with the layout's own version). */
function versionOf(booking: BookingEntity, extras: VoucherExtras): string {
  const printed = [
    VOUCHER_LAYOUT,
    extras.agency,
    booking.status,
    booking.supplierReference,
    booking.cancellationReference,
    booking.cancelledAt,
    booking.cancellationPenalty,
    booking.language,
    booking.id,
    booking.bookingReference,
    booking.hotel,
    booking.checkIn,
    booking.checkOut,
    booking.rooms,
    booking.rate,
    booking.remarks,
    booking.specialRequest,
    booking.firstName,
    booking.lastName,
    booking.email,
    booking.phone,
  ];
  return createHash('sha256').update(JSON.stringify(printed)).digest('base64url').slice(0, 27);
}

/** Bumped whenever voucherPdf prints differently, so every kept PDF is rendered again. */
const VOUCHER_LAYOUT = 2;
