import { Controller, Headers, Inject, Param, Query, Res } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { IsOptional, IsString } from 'class-validator';
import { IsIdString, SUBJECTS } from '@hotel/contracts';
import { DomainError, ServiceClient } from '@hotel/platform';
import { SERVICE_CLIENT } from '../gateway.tokens';
import { ifNoneMatchOf } from '../http/paginated';
import { Route } from '../http/route';

export class VoucherParams {
  @IsIdString()
  booking_id: string;
}

export class VoucherQuery {
  @IsOptional()
  @IsString()
  expires?: string;

  @IsOptional()
  @IsString()
  signature?: string;
}

/**
 * The voucher PDF behind a signed link; no credential. A bad or expired link is 404. The
 * PDF is rendered once per version of the booking and carries an ETag: a client (or a
 * cache) asking again with If-None-Match gets 304 and no body.
 */
@Controller()
export class VoucherController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Route('GET /vouchers/{booking_id}')
  async voucher(
    @Param() params: VoucherParams,
    @Query() query: VoucherQuery,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Buffer | undefined> {
    if (!query.expires || !/^\d{1,12}$/.test(query.expires) || !query.signature || !/^[A-Za-z0-9_-]{10,100}$/.test(query.signature)) {
      throw DomainError.notFound('voucher');
    }
    const voucher = await this.services.send(SUBJECTS.BOOKING_VOUCHER_RENDER, {
      bookingId: Number(params.booking_id),
      expires: query.expires,
      signature: query.signature,
      ...ifNoneMatchOf(ifNoneMatch),
    });
    reply.header('etag', voucher.etag).header('cache-control', 'private, max-age=3600');
    if (voucher.notModified) {
      reply.status(304);
      return undefined;
    }
    reply.header('content-type', 'application/pdf').header('content-disposition', `inline; filename="${voucher.filename}"`);
    return Buffer.from(voucher.pdfBase64, 'base64');
  }
}
