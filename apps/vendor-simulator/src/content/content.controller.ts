import { Controller, Get, Query } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { MAX_CONTENT_HOTELS_PER_PAGE, type ContentHotelsRS } from '@hotel/hotelbeds';
import { VendorOf } from '../http/vendor-request';
import { invalidData } from '../http/vendor-errors';
import { hotelByCode, catalogLanguage } from '../inventory/vendor-codes';
import { VENDORS, type VendorCode } from '../inventory/simulated-inventory';
import { CONTENT_FIELDS, ContentField, ContentHotelAnswer, contentHotel, selectHotelCodes } from './content-hotels';

/** GET /hotel-content-api/1.0/hotels: the query as the client sends it. */
export class ContentHotelsQuery {
  /** `all`, or field names separated by commas; without it the vendor answers codes alone. */
  @IsOptional()
  @Matches(/^[A-Za-z]{1,40}(,[A-Za-z]{1,40}){0,40}$/)
  fields?: string;

  @IsOptional()
  @Matches(/^\d{1,10}(,\d{1,10}){0,999}$/, { message: 'codes must be up to 1000 hotel codes separated by commas' })
  codes?: string;

  @IsOptional()
  @Matches(/^[A-Za-z0-9]{1,20}$/)
  destinationCode?: string;

  @IsOptional()
  @Matches(/^[A-Za-z]{2}$/)
  countryCode?: string;

  @IsOptional()
  @Matches(/^\d{4}-\d{2}-\d{2}$/)
  lastUpdateTime?: string;

  @IsOptional()
  @Matches(/^[A-Za-z]{3}$/)
  language?: string;

  @IsOptional()
  @IsIn(['true', 'false'])
  useSecondaryLanguage?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100_000_000)
  from = 1;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100_000_000)
  to = 100;
}

type ContentHotelsAnswer = Omit<ContentHotelsRS, 'auditData' | 'hotels'> & { hotels: ContentHotelAnswer[] };

@Controller(':vendor/hotel-content-api/1.0')
export class ContentController {
  /** The vendor's hotels, a page at a time (`from`–`to`, 1-based, at most 1000). */
  @Get('hotels')
  hotels(@VendorOf() vendorCode: VendorCode, @Query() query: ContentHotelsQuery): ContentHotelsAnswer {
    if (query.to < query.from || query.to - query.from + 1 > MAX_CONTENT_HOTELS_PER_PAGE) {
      throw invalidData(`from ${query.from} to ${query.to}: a page is 1 to ${MAX_CONTENT_HOTELS_PER_PAGE} hotels`);
    }
    const fields = fieldsOf(query.fields);
    const vendor = VENDORS[vendorCode];
    const codes = selectHotelCodes(vendor, {
      codes: query.codes?.split(',').map(Number),
      countryCode: query.countryCode,
      destinationCode: query.destinationCode,
      lastUpdateTime: query.lastUpdateTime,
    });
    const language = catalogLanguage(query.language);
    const hotels = codes.slice(query.from - 1, query.to).map((code) => contentHotel(hotelByCode(code)!, vendor, language, fields));
    return { from: query.from, to: query.to, total: codes.length, hotels };
  }
}

function fieldsOf(text: string | undefined): ReadonlySet<ContentField> {
  if (text === undefined) return new Set();
  if (text === 'all') return new Set(CONTENT_FIELDS);
  const names = text.split(',');
  const unknown = names.filter((name) => !(CONTENT_FIELDS as readonly string[]).includes(name) && name !== 'code');
  if (unknown.length > 0) throw invalidData(`fields: ${unknown.join(', ')} not known (all, or any of code, ${CONTENT_FIELDS.join(', ')})`);
  return new Set(names.filter((name): name is ContentField => name !== 'code'));
}
