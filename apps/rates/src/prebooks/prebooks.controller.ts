import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { AttachBookingRequest, CreatePrebookRequest, FindPrebookRequest, OPERATIONS, Prebook, StoredPrebook } from '@hotel/contracts';
import { PrebooksService } from './prebooks.service';
import { Handles } from '@hotel/platform';

@Controller()
export class PrebooksController {
  constructor(private readonly prebooks: PrebooksService) {}

  @Handles(OPERATIONS.RATES_PREBOOK_FIND)
  find(@Payload() request: FindPrebookRequest): Promise<StoredPrebook> {
    return this.prebooks.findForBooking(request);
  }

  @Handles(OPERATIONS.RATES_PREBOOK_ATTACH)
  async attach(@Payload() request: AttachBookingRequest): Promise<{ attached: boolean }> {
    await this.prebooks.attachBooking(request.prebookId, request.bookingId, request.processing);
    return { attached: true };
  }

  @Handles(OPERATIONS.RATES_PREBOOK_CREATE)
  create(@Payload() request: CreatePrebookRequest): Promise<Prebook> {
    return this.prebooks.create(request);
  }
}
