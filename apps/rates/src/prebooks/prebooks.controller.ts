import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AttachBookingRequest, CreatePrebookRequest, FindPrebookRequest, PrebookData, SUBJECTS, StoredPrebook } from '@hotel/contracts';
import { PrebooksService } from './prebooks.service';

@Controller()
export class PrebooksController {
  constructor(private readonly prebooks: PrebooksService) {}

  @MessagePattern(SUBJECTS.RATES_PREBOOK_FIND)
  find(@Payload() request: FindPrebookRequest): Promise<StoredPrebook> {
    return this.prebooks.findForBooking(request);
  }

  @MessagePattern(SUBJECTS.RATES_PREBOOK_ATTACH)
  async attach(@Payload() request: AttachBookingRequest): Promise<{ attached: boolean }> {
    await this.prebooks.attachBooking(request.prebookId, request.bookingId, request.processing);
    return { attached: true };
  }

  @MessagePattern(SUBJECTS.RATES_PREBOOK_CREATE)
  create(@Payload() request: CreatePrebookRequest): Promise<PrebookData> {
    return this.prebooks.create(request);
  }
}
