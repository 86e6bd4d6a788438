import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ListVendorReconciliationsRequest, RunVendorReconciliationRequest, SUBJECTS, VendorReconciliationRunReply, VendorReconciliationSection } from '@hotel/contracts';
import { VendorReconciliationService } from './vendor-reconciliation.service';

@Controller()
export class VendorReconciliationController {
  constructor(private readonly reconciliation: VendorReconciliationService) {}

  @MessagePattern(SUBJECTS.RATES_VENDOR_RECONCILIATION_RUN)
  run(@Payload() request: RunVendorReconciliationRequest): Promise<VendorReconciliationRunReply> {
    return this.reconciliation.run(request, 'command');
  }

  @MessagePattern(SUBJECTS.RATES_VENDOR_RECONCILIATION_LIST)
  list(@Payload() request: ListVendorReconciliationsRequest): Promise<VendorReconciliationSection> {
    return this.reconciliation.list(request.from, request.to);
  }
}
