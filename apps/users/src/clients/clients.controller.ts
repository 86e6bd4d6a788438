import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ClientAccountTerms, ClientCredentials, ClientIdRequest, ClientKeysRequest, ClientName, ClientPricingReply, ClientRateLimitReply, CreateClientRequest, DeleteClientReply, ListClientsReply, ListClientsRequest, OPERATIONS, ResolveCredentialRequest, ResolvedCredential, RevokeKeysReply, RotateKeysReply, SearchClientsRequest, SetFxMarginRequest, SetRateLimitRequest } from '@hotel/contracts';
import { ClientsService } from './clients.service';
import { Handles } from '@hotel/platform';

@Controller()
export class ClientsController {
  constructor(private readonly clients: ClientsService) {}

  @Handles(OPERATIONS.USERS_CREDENTIAL_RESOLVE)
  resolve(@Payload() request: ResolveCredentialRequest): Promise<ResolvedCredential> {
    return this.clients.resolveCredential(request.secretHash, request.userToken);
  }

  @Handles(OPERATIONS.USERS_CLIENT_CREATE)
  create(@Payload() request: CreateClientRequest): Promise<Required<ClientCredentials>> {
    return this.clients.createClient(request);
  }

  @Handles(OPERATIONS.USERS_CLIENT_DELETE)
  delete(@Payload() request: ClientIdRequest): Promise<DeleteClientReply> {
    return this.clients.deleteClient(request.clientId);
  }

  @Handles(OPERATIONS.USERS_CLIENT_GET)
  terms(@Payload() request: ClientIdRequest): Promise<ClientAccountTerms> {
    return this.clients.terms(request.clientId);
  }

  @Handles(OPERATIONS.USERS_CLIENT_SEARCH)
  search(@Payload() request: SearchClientsRequest): Promise<ClientName[]> {
    return this.clients.search(request.search, request.limit);
  }

  @Handles(OPERATIONS.USERS_CLIENT_LIST)
  list(@Payload() _request: ListClientsRequest): Promise<ListClientsReply> {
    return this.clients.listClients();
  }

  @Handles(OPERATIONS.USERS_CLIENT_ROTATE_KEYS)
  rotate(@Payload() request: ClientKeysRequest): Promise<RotateKeysReply> {
    return this.clients.rotateKeys(request);
  }

  @Handles(OPERATIONS.USERS_CLIENT_SET_RATE_LIMIT)
  setRateLimit(@Payload() request: SetRateLimitRequest): Promise<ClientRateLimitReply> {
    return this.clients.setRateLimit(request);
  }

  @Handles(OPERATIONS.USERS_CLIENT_SET_FX_MARGIN)
  setFxMargin(@Payload() request: SetFxMarginRequest): Promise<ClientPricingReply> {
    return this.clients.setFxMargin(request);
  }

  @Handles(OPERATIONS.USERS_CLIENT_REVOKE_KEYS)
  revoke(@Payload() request: ClientKeysRequest): Promise<RevokeKeysReply> {
    return this.clients.revokeKeys(request);
  }
}
