import { Actor, FINANCE_NO_CLIENT } from '@hotel/contracts';
import { DomainError } from '../errors/domain-error';

/**
 * The one role check services make on the actor the gateway authenticated: the
 * backend API's operations (users, the ledger) take the client's backend token.
 * `what` names the operation in the 403's message.
 */
export function requireBackend(actor: Actor, what: string): void {
  if (actor.role !== 'backend') throw new DomainError('FORBIDDEN', `${what} takes the backend token`);
}

/**
 * The ledger's reads (and the finance team's work): the client's backend token for
 * its own client, or the finance credential for the client it names (the gateway
 * puts the `clientId` parameter in the actor). The client whose ledger it is.
 */
export function requireLedgerReader(actor: Actor, what: string): number {
  if (actor.role === 'finance') {
    if (actor.clientId === FINANCE_NO_CLIENT) throw DomainError.validation([{ field: 'clientId', message: `clientId is required with the finance credential (${what})` }]);
    return actor.clientId;
  }
  if (actor.role !== 'backend') throw new DomainError('FORBIDDEN', `${what} takes the backend token or the finance credential`);
  return actor.clientId;
}

/** Operations of the finance team alone (confirming credits). */
export function requireFinance(actor: Actor, what: string): void {
  if (actor.role !== 'finance') throw new DomainError('FORBIDDEN', `${what} takes the finance credential`);
}
