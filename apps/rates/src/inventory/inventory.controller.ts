import { Controller } from '@nestjs/common';
import { OPERATIONS, SoldOutReply } from '@hotel/contracts';
import { Handles } from '@hotel/platform';

/**
 * The platform keeps no allotment any more: each vendor keeps its own, and what it offers
 * is what it has. This answer (nothing sold out) is for search replicas of the release
 * before, which still ask it, during a rolling upgrade; remove it, and its subject, in
 * the next release.
 */
@Controller()
export class InventoryController {
  @Handles(OPERATIONS.RATES_INVENTORY_SOLD_OUT)
  soldOut(): SoldOutReply {
    return { soldOut: [] };
  }
}
