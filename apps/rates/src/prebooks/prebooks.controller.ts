import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CreatePrebookRequest, PrebookData, SUBJECTS } from '@hotel/contracts';
import { PrebooksService } from './prebooks.service';

@Controller()
export class PrebooksController {
  constructor(private readonly prebooks: PrebooksService) {}

  @MessagePattern(SUBJECTS.RATES_PREBOOK_CREATE)
  create(@Payload() request: CreatePrebookRequest): Promise<PrebookData> {
    return this.prebooks.create(request);
  }
}
