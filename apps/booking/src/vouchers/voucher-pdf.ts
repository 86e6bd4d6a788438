import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { BOOKING_LANGUAGES, BookingLanguage, milliToNumber, toMilli } from '@hotel/contracts';
import { BookingEntity } from '../bookings/booking.entity';

/** What a voucher prints beside the booking: who booked it. */
export interface VoucherExtras {
  /** The agency (the platform's client) the booking was made through; null when it cannot be told. */
  agency: string | null;
}

type Label =
  | 'title'
  | 'cancelledTitle'
  | 'cancelledNote'
  | 'bookedThrough'
  | 'bookingReference'
  | 'vendorReference'
  | 'scan'
  | 'stars'
  | 'phone'
  | 'email'
  | 'checkIn'
  | 'checkOut'
  | 'from'
  | 'until'
  | 'before'
  | 'room'
  | 'guests'
  | 'policy'
  | 'refundable'
  | 'nonRefundable'
  | 'freeUntil'
  | 'penaltyFrom'
  | 'payableAtHotel'
  | 'remarks'
  | 'specialRequest'
  | 'leadGuest'
  | 'cancellationReference'
  | 'cancelledAt'
  | 'cancellationPenalty';

/** The voucher's words in each booking language (its dates and amounts follow the language too). */
const LABELS: Record<BookingLanguage, Record<Label, string>> = {
  en: {
    title: 'Hotel voucher',
    cancelledTitle: 'CANCELLED',
    cancelledNote: 'This booking was cancelled: the stay is not reserved and this voucher cannot be used.',
    bookedThrough: 'Booked through',
    bookingReference: 'Booking reference',
    vendorReference: 'Supplier reference',
    scan: 'Show at check-in',
    stars: 'stars',
    phone: 'Phone',
    email: 'E-mail',
    checkIn: 'Check-in',
    checkOut: 'Check-out',
    from: 'from',
    until: 'to',
    before: 'before',
    room: 'Room',
    guests: 'Guests',
    policy: 'Cancellation policy',
    refundable: 'Refundable',
    nonRefundable: 'Non-refundable',
    freeUntil: 'free of charge until',
    penaltyFrom: 'From',
    payableAtHotel: 'Payable at the hotel',
    remarks: 'Remarks',
    specialRequest: 'Special request',
    leadGuest: 'Lead guest',
    cancellationReference: 'Cancellation reference',
    cancelledAt: 'Cancelled on',
    cancellationPenalty: 'Cancellation charge',
  },
  fr: {
    title: "Bon d'échange hôtel",
    cancelledTitle: 'ANNULÉE',
    cancelledNote: "Cette réservation a été annulée : le séjour n'est pas réservé et ce bon ne peut pas être utilisé.",
    bookedThrough: 'Réservé par',
    bookingReference: 'Référence de réservation',
    vendorReference: 'Référence fournisseur',
    scan: "À présenter à l'arrivée",
    stars: 'étoiles',
    phone: 'Téléphone',
    email: 'E-mail',
    checkIn: 'Arrivée',
    checkOut: 'Départ',
    from: 'de',
    until: 'à',
    before: 'avant',
    room: 'Chambre',
    guests: 'Voyageurs',
    policy: "Conditions d'annulation",
    refundable: 'Remboursable',
    nonRefundable: 'Non remboursable',
    freeUntil: "sans frais jusqu'au",
    penaltyFrom: 'À partir du',
    payableAtHotel: "À payer à l'hôtel",
    remarks: 'Remarques',
    specialRequest: 'Demande particulière',
    leadGuest: 'Voyageur principal',
    cancellationReference: "Référence d'annulation",
    cancelledAt: 'Annulée le',
    cancellationPenalty: "Frais d'annulation",
  },
  es: {
    title: 'Bono de hotel',
    cancelledTitle: 'CANCELADA',
    cancelledNote: 'Esta reserva fue cancelada: la estancia no está reservada y este bono no puede usarse.',
    bookedThrough: 'Reservado a través de',
    bookingReference: 'Referencia de la reserva',
    vendorReference: 'Referencia del proveedor',
    scan: 'Presentar a la llegada',
    stars: 'estrellas',
    phone: 'Teléfono',
    email: 'Correo electrónico',
    checkIn: 'Entrada',
    checkOut: 'Salida',
    from: 'de',
    until: 'a',
    before: 'antes de las',
    room: 'Habitación',
    guests: 'Huéspedes',
    policy: 'Política de cancelación',
    refundable: 'Reembolsable',
    nonRefundable: 'No reembolsable',
    freeUntil: 'sin cargo hasta el',
    penaltyFrom: 'Desde el',
    payableAtHotel: 'A pagar en el hotel',
    remarks: 'Observaciones',
    specialRequest: 'Petición especial',
    leadGuest: 'Huésped principal',
    cancellationReference: 'Referencia de cancelación',
    cancelledAt: 'Cancelada el',
    cancellationPenalty: 'Gastos de cancelación',
  },
  pt: {
    title: 'Voucher de hotel',
    cancelledTitle: 'CANCELADA',
    cancelledNote: 'Esta reserva foi cancelada: a estadia não está reservada e este voucher não pode ser usado.',
    bookedThrough: 'Reservado através de',
    bookingReference: 'Referência da reserva',
    vendorReference: 'Referência do fornecedor',
    scan: 'Apresentar no check-in',
    stars: 'estrelas',
    phone: 'Telefone',
    email: 'E-mail',
    checkIn: 'Check-in',
    checkOut: 'Check-out',
    from: 'das',
    until: 'às',
    before: 'até às',
    room: 'Quarto',
    guests: 'Hóspedes',
    policy: 'Política de cancelamento',
    refundable: 'Reembolsável',
    nonRefundable: 'Não reembolsável',
    freeUntil: 'sem custos até',
    penaltyFrom: 'A partir de',
    payableAtHotel: 'A pagar no hotel',
    remarks: 'Observações',
    specialRequest: 'Pedido especial',
    leadGuest: 'Hóspede principal',
    cancellationReference: 'Referência do cancelamento',
    cancelledAt: 'Cancelada em',
    cancellationPenalty: 'Custo do cancelamento',
  },
};

/** Guests of a room, with the language's plural forms: "2 adults, 1 child (7)". */
const GUEST_WORDS: Record<BookingLanguage, { adult: [string, string]; child: [string, string] }> = {
  en: { adult: ['adult', 'adults'], child: ['child', 'children'] },
  fr: { adult: ['adulte', 'adultes'], child: ['enfant', 'enfants'] },
  es: { adult: ['adulto', 'adultos'], child: ['niño', 'niños'] },
  pt: { adult: ['adulto', 'adultos'], child: ['criança', 'crianças'] },
};

const BOARD_NAMES: Record<BookingLanguage, Record<string, string>> = {
  en: { RO: 'Room only', BB: 'Bed and breakfast', HB: 'Half board', FB: 'Full board', AI: 'All inclusive' },
  fr: { RO: 'Chambre seule', BB: 'Petit-déjeuner inclus', HB: 'Demi-pension', FB: 'Pension complète', AI: 'Tout compris' },
  es: { RO: 'Solo alojamiento', BB: 'Alojamiento y desayuno', HB: 'Media pensión', FB: 'Pensión completa', AI: 'Todo incluido' },
  pt: { RO: 'Só alojamento', BB: 'Alojamento e pequeno-almoço', HB: 'Meia pensão', FB: 'Pensão completa', AI: 'Tudo incluído' },
};

const RED = '#b00020';
const GREY = '#555555';

/** The booking's language as the voucher writes it (English for one it does not know). */
function languageOf(booking: BookingEntity): BookingLanguage {
  return (BOOKING_LANGUAGES as readonly string[]).includes(booking.language) ? (booking.language as BookingLanguage) : 'en';
}

/**
 * The PDF voucher of a booking: the hotel and how to reach it, the stay with its times, the
 * guests, the references (the supplier's also as a QR code the hotel can scan), the agency,
 * the cancellation terms; dates, times and amounts written in the booking's language. A
 * cancelled booking's voucher says so first, with its cancellation.
 */
export async function voucherPdf(booking: BookingEntity, extras: VoucherExtras): Promise<Buffer> {
  const language = languageOf(booking);
  const words = LABELS[language];
  const formats = formatsOf(language);
  const reference = booking.bookingReference[0] ?? `HB-${booking.id}`;
  const qr = QRCode.create(reference, { errorCorrectionLevel: 'M' });
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `${words.title} ${booking.bookingReference.join(' / ')}`, Author: extras.agency ?? undefined } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const hotel = booking.hotel;
  const rate = booking.rate;
  const cancelled = booking.status === 'cancelled';
  const text = (value: string) => value.replace(/\u202f/g, '\u00a0');

  // The QR code, top right: the supplier's reference, which the hotel holds the booking under.
  const cell = 3;
  const qrSize = qr.modules.size * cell;
  const qrX = doc.page.width - doc.page.margins.right - qrSize;
  const qrY = doc.page.margins.top;
  doc.save().fillColor('#000000');
  for (let row = 0; row < qr.modules.size; row++) {
    for (let column = 0; column < qr.modules.size; column++) {
      if (qr.modules.get(row, column)) doc.rect(qrX + column * cell, qrY + row * cell, cell, cell);
    }
  }
  doc.fill().restore();
  doc.fontSize(7).fillColor(GREY).text(`${words.scan}: ${reference}`, qrX - 40, qrY + qrSize + 4, { width: qrSize + 40, align: 'right' });

  const textWidth = qrX - doc.page.margins.left - 20;
  doc.fillColor('#000000').fontSize(20).text(words.title, doc.page.margins.left, doc.page.margins.top, { width: textWidth });
  if (cancelled) doc.moveDown(0.3).fontSize(26).fillColor(RED).text(words.cancelledTitle, { width: textWidth });
  doc.moveDown(0.5).fontSize(10).fillColor(GREY);
  if (extras.agency) doc.text(text(`${words.bookedThrough}: ${extras.agency}`), { width: textWidth });
  doc.text(`${words.bookingReference}: HB-${booking.id}`, { width: textWidth });
  if (booking.supplierReference) doc.text(`${words.vendorReference}: ${booking.supplierReference}`, { width: textWidth });
  doc.y = Math.max(doc.y, qrY + qrSize + 20);

  if (cancelled) {
    doc.moveDown().fillColor(RED).fontSize(11).text(words.cancelledNote);
    if (booking.cancellationReference) doc.text(`${words.cancellationReference}: ${booking.cancellationReference}`);
    if (booking.cancelledAt) doc.text(text(`${words.cancelledAt}: ${formats.dateTime(booking.cancelledAt)}`));
    doc.text(text(`${words.cancellationPenalty}: ${formats.money(booking.cancellationPenalty ?? '0', booking.priceCurrency)}`));
  }

  doc.moveDown().fillColor('#000000').fontSize(14).text(hotel.name);
  const address = [hotel.address.address, [hotel.address.postal_code, hotel.address.city].filter(Boolean).join(' '), hotel.address.region, hotel.address.country].filter(Boolean).join(', ');
  doc.fontSize(10).text(text(`${formats.stars(hotel.stars)} ${words.stars} · ${address}`));
  const contacts = [hotel.phone ? `${words.phone}: ${hotel.phone}` : null, hotel.email ? `${words.email}: ${hotel.email}` : null].filter(Boolean);
  if (contacts.length) doc.text(contacts.join(' · '));
  doc.moveDown();
  doc.fontSize(11).text(text(`${words.checkIn}: ${formats.day(booking.checkIn)}, ${words.from} ${hotel.check_in_begin_time} ${words.until} ${hotel.check_in_end_time}`));
  doc.text(text(`${words.checkOut}: ${formats.day(booking.checkOut)}, ${words.before} ${hotel.check_out_before_time}`));
  doc.moveDown();
  booking.rooms.forEach((room, index) => {
    const rateRoom = rate.rooms[index] ?? rate.rooms[0];
    // How many stay (the rate's room); the guests named are the lead guest of each room, and any children.
    const guestWords = GUEST_WORDS[language];
    const counts = [`${rateRoom.adults} ${guestWords.adult[rateRoom.adults === 1 ? 0 : 1]}`];
    if (rateRoom.children > 0) counts.push(`${rateRoom.children} ${guestWords.child[rateRoom.children === 1 ? 0 : 1]} (${rateRoom.children_ages.join(', ')})`);
    doc.text(`${words.room} ${index + 1}: ${rateRoom.name}, ${BOARD_NAMES[language][rateRoom.board] ?? rateRoom.board}: ${counts.join(', ')}`);
    const names = [...room.adults, ...room.children].map((guest) => `${guest.first_name} ${guest.last_name}`);
    doc.fontSize(10).fillColor('#333333').text(`   ${words.guests}: ${names.join('; ')}`).fillColor('#000000').fontSize(11);
  });
  doc.moveDown();
  const refundable = rate.cancellation_policy === 'Refundable';
  doc.text(text(`${words.policy}: ${refundable ? words.refundable : words.nonRefundable}${refundable && rate.cancellation_policy_datetime ? `, ${words.freeUntil} ${formats.dateTime(new Date(rate.cancellation_policy_datetime))}` : ''}`));
  for (const period of rate.cancellation_policy_data) {
    doc.fontSize(10).text(text(`   ${words.penaltyFrom} ${formats.dateTime(new Date(period.from_datetime))}: ${formats.money(period.price_cancellation_penalty, period.price_currency)}`));
  }
  doc.fontSize(11);
  if (rate.price_due_at_hotel > 0) doc.text(text(`${words.payableAtHotel}: ${formats.money(rate.price_due_at_hotel, rate.price_currency)}`));
  if (booking.remarks) doc.moveDown().text(`${words.remarks}:`).fontSize(10).text(booking.remarks);
  if (booking.specialRequest) doc.fontSize(10).text(`${words.specialRequest}: ${booking.specialRequest}`);
  doc.moveDown().fontSize(9).fillColor(GREY).text(`${words.leadGuest}: ${booking.firstName} ${booking.lastName}, ${booking.email}, ${booking.phone}`);
  doc.end();
  return done;
}

/** Dates, times and amounts as the language writes them (times in UTC, as the booking's deadlines are). */
function formatsOf(language: BookingLanguage) {
  const day = new Intl.DateTimeFormat(language, { dateStyle: 'full', timeZone: 'UTC' });
  const dateTime = new Intl.DateTimeFormat(language, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
  const stars = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
  return {
    /** A YYYY-MM-DD day: "Monday, 15 March 2027" in its language. */
    day: (isoDay: string) => day.format(new Date(`${isoDay}T00:00:00Z`)),
    dateTime: (moment: Date) => `${dateTime.format(moment)} UTC`,
    money: (amount: number | string, currency: string) => new Intl.NumberFormat(language, { style: 'currency', currency }).format(milliToNumber(toMilli(amount))),
    stars: (value: number) => stars.format(value),
  };
}
