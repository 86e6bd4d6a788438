import { IsInt, IsOptional, IsPositive, Matches } from 'class-validator';
import { ENTITY_TAGS } from '../common/entity-tags';

/** The PDF behind a signed voucher link (no credential: the signature is the authority). */
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

/** booking.voucher.render.v3: the PDF and its entity tag; none of the PDF when the client has that version already. */
export class RenderVoucherRequestV3 extends RenderVoucherRequest {
  /** The client's If-None-Match. */
  @IsOptional()
  @Matches(ENTITY_TAGS)
  ifNoneMatch?: string;
}

export type VoucherAnswer =
  /** The PDF, and its entity tag (one per version of the booking it shows). */
  | (VoucherPdf & { etag: string; notModified?: false })
  /** The client's copy is this version: nothing to send. */
  | { etag: string; notModified: true };
