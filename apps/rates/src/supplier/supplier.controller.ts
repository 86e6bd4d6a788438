import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { OPERATIONS, SupplierBookRequest, SupplierBooking, SupplierCancelRequest, SupplierStatusRequest } from '@hotel/contracts';
import { SupplierService } from './supplier.service';
import { Handles } from '@hotel/platform';

@Controller()
export class SupplierController {
  constructor(private readonly supplier: SupplierService) {}

  @Handles(OPERATIONS.RATES_SUPPLIER_BOOK)
  book(@Payload() request: SupplierBookRequest): Promise<SupplierBooking> {
    return this.supplier.book(request);
  }

  @Handles(OPERATIONS.RATES_SUPPLIER_STATUS)
  status(@Payload() request: SupplierStatusRequest): Promise<SupplierBooking> {
    return this.supplier.status(request.bookingId);
  }

  @Handles(OPERATIONS.RATES_SUPPLIER_CANCEL)
  cancel(@Payload() request: SupplierCancelRequest): Promise<SupplierBooking> {
    return this.supplier.cancel(request.bookingId);
  }
}
