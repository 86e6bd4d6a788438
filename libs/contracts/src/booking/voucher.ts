import { IsInt, IsPositive, Matches } from 'class-validator';

/** booking.voucher.render.v2: the PDF behind a signed voucher link (no credential: the signature is the authority). */
export class RenderVoucherRequest {
  @IsInt()
  @IsPositive()
  bookingId: number;

  @Matches(/^\d{1,12}$/)
  expires: string;

  @Matches(/^[A-Za-z0-9_-]{10,100}$/)
  signature: string;
}

export interface VoucherPdf {
  filename: string;
  /** The PDF, base64. */
  pdfBase64: string;
}
