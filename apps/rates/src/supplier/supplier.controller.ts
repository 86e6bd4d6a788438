import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { SUBJECTS, SupplierBookRequest, SupplierBooking, SupplierCancelRequest, SupplierStatusRequest } from '@hotel/contracts';
import { SupplierService } from './supplier.service';

@Controller()
export class SupplierController {
  constructor(private readonly supplier: SupplierService) {}

  @MessagePattern(SUBJECTS.RATES_SUPPLIER_BOOK)
  book(@Payload() request: SupplierBookRequest): Promise<SupplierBooking> {
    return this.supplier.book(request);
  }

  @MessagePattern(SUBJECTS.RATES_SUPPLIER_STATUS)
  status(@Payload() request: SupplierStatusRequest): Promise<SupplierBooking> {
    return this.supplier.status(request.bookingId);
  }

  @MessagePattern(SUBJECTS.RATES_SUPPLIER_CANCEL)
  cancel(@Payload() request: SupplierCancelRequest): Promise<SupplierBooking> {
    return this.supplier.cancel(request.bookingId);
  }
}
