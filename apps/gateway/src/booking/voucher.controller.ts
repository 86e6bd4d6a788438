import { Controller, Get, Header, Inject, Param, Query } from '@nestjs/common';
import { IsOptional, IsString } from 'class-validator';
import { IsIdString, SUBJECTS } from '@hotel/contracts';
import { DomainError, ServiceClient } from '@hotel/platform';
import { SERVICE_CLIENT } from '../gateway.tokens';

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

/** The voucher PDF behind a signed link; no credential. A bad or expired link is 404. */
@Controller('vouchers')
export class VoucherController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  @Get(':booking_id')
  @Header('content-type', 'application/pdf')
  @Header('cache-control', 'private, max-age=3600')
  async voucher(@Param() params: VoucherParams, @Query() query: VoucherQuery): Promise<Buffer> {
    if (!query.expires || !/^\d{1,12}$/.test(query.expires) || !query.signature || !/^[A-Za-z0-9_-]{10,100}$/.test(query.signature)) {
      throw DomainError.notFound('voucher');
    }
    const voucher = await this.services.send(SUBJECTS.BOOKING_VOUCHER_RENDER, {
      bookingId: Number(params.booking_id),
      expires: query.expires,
      signature: query.signature,
    });
    return Buffer.from(voucher.pdfBase64, 'base64');
  }
}
