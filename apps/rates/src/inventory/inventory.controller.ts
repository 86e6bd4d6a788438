import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { SUBJECTS, SoldOutReply, SoldOutRequest } from '@hotel/contracts';
import { AllotmentsRepository } from './allotments.repository';

@Controller()
export class InventoryController {
  constructor(private readonly allotments: AllotmentsRepository) {}

  @MessagePattern(SUBJECTS.RATES_INVENTORY_SOLD_OUT)
  async soldOut(@Payload() request: SoldOutRequest): Promise<SoldOutReply> {
    return { soldOut: await this.allotments.soldOut(request.hotelIds, request.checkIn, request.checkOut, request.rooms) };
  }
}
