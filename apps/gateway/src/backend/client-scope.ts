import { Actor } from '@hotel/contracts';
import { DomainError } from '@hotel/platform';

/**
 * The actor a backend route sends for a `clientId` parameter: the finance credential
 * works on the client it names (every client's ledger); a client's own credential may
 * name only its own client, and another is 404, as another client's objects are.
 */
export function scopedActor(actor: Actor, clientId: number | undefined): Actor {
  if (clientId === undefined) return actor;
  if (actor.role === 'finance') return { ...actor, clientId };
  if (clientId !== actor.clientId) throw DomainError.notFound(`client ${clientId}`);
  return actor;
}
