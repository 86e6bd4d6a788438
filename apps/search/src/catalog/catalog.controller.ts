import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { CatalogHotelRecord, CatalogHotelsReply, ContentImportRunReply, GetCatalogHotelsRequest, OPERATIONS, RunContentImportRequest } from '@hotel/contracts';
import { ContentImportService } from './content-import.service';
import { HotelCatalog } from './hotel-catalog';
import { Handles } from '@hotel/platform';

@Controller()
export class CatalogController {
  constructor(
    private readonly catalog: HotelCatalog,
    private readonly imports: ContentImportService,
  ) {}

  @Handles(OPERATIONS.SEARCH_CATALOG_HOTELS_GET)
  async hotels(@Payload() request: GetCatalogHotelsRequest): Promise<CatalogHotelsReply> {
    const hotels = await this.catalog.hotels(request.ids);
    return { hotels: hotels.filter((hotel) => hotel !== undefined) as unknown as CatalogHotelRecord[] };
  }

  @Handles(OPERATIONS.SEARCH_CONTENT_IMPORT_RUN)
  async runImport(@Payload() request: RunContentImportRequest): Promise<ContentImportRunReply> {
    return { reports: await this.imports.runNow(request.vendor, request.full ?? false) };
  }
}
