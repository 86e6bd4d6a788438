import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ListVendorReconciliationsRequest, OPERATIONS, RunVendorReconciliationRequest, VendorReconciliationRunReply, VendorReconciliationSection } from '@hotel/contracts';
import { VendorReconciliationService } from './vendor-reconciliation.service';
import { Handles } from '@hotel/platform';

@Controller()
export class VendorReconciliationController {
  constructor(private readonly reconciliation: VendorReconciliationService) {}

  @Handles(OPERATIONS.RATES_VENDOR_RECONCILIATION_RUN)
  run(@Payload() request: RunVendorReconciliationRequest): Promise<VendorReconciliationRunReply> {
    return this.reconciliation.run(request, 'command');
  }

  @Handles(OPERATIONS.RATES_VENDOR_RECONCILIATION_LIST)
  list(@Payload() request: ListVendorReconciliationsRequest): Promise<VendorReconciliationSection> {
    return this.reconciliation.list(request.from, request.to);
  }
}
