import { Actor } from '@hotel/contracts';
import { DomainError } from '../errors/domain-error';

/**
 * The one role check services make on the actor the gateway authenticated: the
 * backend API's operations (users, the ledger) take the client's backend token.
 * `what` names the operation in the 403's message.
 */
export function requireBackend(actor: Actor, what: string): void {
  if (actor.role !== 'backend') throw new DomainError('FORBIDDEN', `${what} takes the backend token`);
}
