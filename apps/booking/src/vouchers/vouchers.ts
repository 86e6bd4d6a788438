import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash, timingSafeEqual } from 'node:crypto';
import PDFDocument from 'pdfkit';
import { DataSource } from 'typeorm';
import { VoucherAnswer, VoucherPdf, formatAmount, toMilli } from '@hotel/contracts';
import { DomainError, SERVICE_ENV, rowsOf } from '@hotel/platform';
import { BookingEnv } from '../booking.env';
import { BookingEntity } from '../bookings/booking.entity';
import { BookingsRepository } from '../bookings/bookings.repository';
import { voucherSignature, voucherUrl } from './voucher-links';

const BOARD_NAMES: Record<string, string> = { RO: 'Room only', BB: 'Bed and breakfast', HB: 'Half board', FB: 'Full board', AI: 'All inclusive' };

/**
 * Vouchers: a signed link that expires (so it can be handed to the traveller
 * without a credential), and the PDF behind it, made from the booking.
 */
@Injectable()
export class Vouchers {
  constructor(
    private readonly bookings: BookingsRepository,
    @Inject(SERVICE_ENV) private readonly env: BookingEnv,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  url(bookingId: number, now = Date.now()): string {
    return voucherUrl(this.env, bookingId, now);
  }

  /** The PDF for a valid link; a tampered or expired link, or a booking that is not confirmed, is 404. */
  async render(bookingId: number, expires: string, signature: string): Promise<VoucherPdf> {
    const answer = await this.answer(bookingId, expires, signature);
    return { filename: answer.filename, pdfBase64: answer.pdfBase64 };
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
    if (!booking || booking.status !== 'confirmed') throw notFound();
    const version = versionOf(booking);
    const etag = `"${version}"`;
    if (ifNoneMatch !== undefined && matchesEntityTag(ifNoneMatch, version)) return { etag, notModified: true, filename: '', pdfBase64: '' };
    return { etag, filename: `voucher-${booking.id}.pdf`, pdfBase64: (await this.pdf(booking, version)).toString('base64') };
  }

  /** The kept PDF of this version, or one rendered now and kept (the first of two replicas rendering at once keeps its own). */
  private async pdf(booking: BookingEntity, version: string): Promise<Buffer> {
    const [kept] = rowsOf<{ pdf: Buffer }>(await this.dataSource.query('SELECT pdf FROM booking.voucher_pdfs WHERE booking_id = $1 AND version = $2', [booking.id, version]));
    if (kept) return kept.pdf;
    const pdf = await pdfOf(booking);
    await this.dataSource.query(
      `INSERT INTO booking.voucher_pdfs (booking_id, version, pdf) VALUES ($1, $2, $3)
       ON CONFLICT (booking_id) DO UPDATE SET version = EXCLUDED.version, pdf = EXCLUDED.pdf, rendered_at = now() WHERE booking.voucher_pdfs.version <> EXCLUDED.version`,
      [booking.id, version, pdf],
    );
    return pdf;
  }
}

/** What the voucher prints, as a digest: a new one whenever the booking shown changes (and with the layout's own version). */
function versionOf(booking: BookingEntity): string {
  const printed = [
    VOUCHER_LAYOUT,
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

/** Bumped whenever pdfOf prints differently, so every kept PDF is rendered again. */
const VOUCHER_LAYOUT = 1;

/** Whether an If-None-Match names this version (`*` names any; weak tags compare as strong ones, as GET allows). */
function matchesEntityTag(ifNoneMatch: string, version: string): boolean {
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === `"${version}"`;
  });
}


function pdfOf(booking: BookingEntity): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `Hotel voucher ${booking.bookingReference.join(' / ')}` } });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    const hotel = booking.hotel;
    const rate = booking.rate;
    doc.fontSize(20).text('Hotel voucher', { align: 'left' });
    doc.moveDown(0.5).fontSize(10).fillColor('#555').text(`Booking ${booking.id} · references ${booking.bookingReference.join(', ')}`);
    doc.moveDown().fillColor('#000').fontSize(14).text(hotel.name);
    doc.fontSize(10).text(`${hotel.stars} stars · ${hotel.address.address}, ${hotel.address.postal_code} ${hotel.address.city}, ${hotel.address.region ? `${hotel.address.region}, ` : ''}${hotel.address.country}`);
    doc.moveDown();
    doc.fontSize(11).text(`Check-in: ${booking.checkIn} (from ${hotel.check_in_begin_time} to ${hotel.check_in_end_time})`);
    doc.text(`Check-out: ${booking.checkOut} (before ${hotel.check_out_before_time})`);
    doc.moveDown();
    booking.rooms.forEach((room, index) => {
      const rateRoom = rate.rooms[index] ?? rate.rooms[0];
      const guests = [...room.adults.map((guest) => `${guest.first_name} ${guest.last_name}`), ...room.children.map((child) => `child, ${child.age}`)];
      doc.text(`Room ${index + 1}: ${rateRoom.name}, ${BOARD_NAMES[rateRoom.board] ?? rateRoom.board} — ${rateRoom.adults} adult(s), ${rateRoom.children} child(ren)`);
      doc.fontSize(10).fillColor('#333').text(`   Guests: ${guests.join('; ')}`).fillColor('#000').fontSize(11);
    });
    doc.moveDown();
    doc.text(`Cancellation policy: ${rate.cancellation_policy}${rate.cancellation_policy === 'Refundable' ? `, free until ${rate.cancellation_policy_datetime}` : ''}`);
    for (const period of rate.cancellation_policy_data) {
      doc.fontSize(10).text(`   From ${period.from_datetime}: penalty ${formatAmount(toMilli(period.price_cancellation_penalty), period.price_currency)} ${period.price_currency}`);
    }
    doc.fontSize(11);
    if (rate.price_due_at_hotel > 0) doc.text(`Payable at the hotel: ${formatAmount(toMilli(rate.price_due_at_hotel), rate.price_currency)} ${rate.price_currency}`);
    doc.moveDown().text('Remarks:').fontSize(10).text(booking.remarks);
    if (booking.specialRequest) doc.text(`Special request: ${booking.specialRequest}`);
    doc.moveDown().fontSize(9).fillColor('#555').text(`Lead guest contact: ${booking.firstName} ${booking.lastName}, ${booking.email}, ${booking.phone}`);
    doc.end();
  });
}
