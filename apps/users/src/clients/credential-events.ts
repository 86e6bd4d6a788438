import { Inject, Injectable, Logger } from '@nestjs/common';
import { EVENTS } from '@hotel/contracts';
import { SERVICE_CLIENT, ServiceClient } from '@hotel/platform';

/**
 * Tells every gateway that a client's (or a user's) credentials changed, so each
 * forgets what it cached of them before the next request: revocation takes effect
 * at once, not when a cache entry runs out.
 */
@Injectable()
export class CredentialEvents {
  private readonly logger = new Logger('CredentialEvents');

  constructor(@Inject(SERVICE_CLIENT) private readonly services: ServiceClient) {}

  async revoked(clientId: number, userId?: number): Promise<void> {
    try {
      await this.services.publishEvent(EVENTS.USERS_CREDENTIALS_REVOKED, { clientId, ...(userId !== undefined && { userId }) });
    } catch (error) {
      // The change is recorded; gateways still drop the entry when its time runs out.
      this.logger.error({ msg: 'could not announce a credential change', clientId, userId, error: error instanceof Error ? error.message : String(error) });
    }
  }
}
