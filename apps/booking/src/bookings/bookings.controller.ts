import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { CreateBookingReply, CreateBookingRequest, SUBJECTS } from '@hotel/contracts';
import { BookingsService } from './bookings.service';

@Controller()
export class BookingsController {
  constructor(private readonly bookings: BookingsService) {}

  @MessagePattern(SUBJECTS.BOOKING_BOOKING_CREATE)
  create(@Payload() request: CreateBookingRequest): Promise<CreateBookingReply> {
    return this.bookings.create(request);
  }
}
