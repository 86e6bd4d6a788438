import { ArgumentsHost, Catch, Logger, RpcExceptionFilter } from '@nestjs/common';
import { Observable, throwError } from 'rxjs';
import { RpcErrorPayload } from '@hotel/contracts';
import { DomainError } from '../errors/domain-error';
import { isUnavailableError, unavailable } from '../errors/unavailable';
import { requestContext } from '../logging/request-context';

/**
 * Turns whatever a message handler throws into an {@link RpcErrorPayload}. A plain
 * Error would arrive at the caller as Nest's generic "Internal server error", so
 * unexpected errors are logged here (with the request id) and answered generically.
 * A database that is down or overloaded is SERVICE_UNAVAILABLE (503 with Retry-After
 * at the gateway): the request was fine and a retry may succeed.
 */
@Catch()
export class RpcErrorFilter implements RpcExceptionFilter<unknown> {
  private readonly logger = new Logger('RpcErrorFilter');

  catch(exception: unknown, _host: ArgumentsHost): Observable<RpcErrorPayload> {
    if (exception instanceof DomainError) return throwError(() => exception.toWire());
    if (isUnavailableError(exception)) {
      this.logger.warn({ msg: 'dependency unavailable', error: exception instanceof Error ? exception.message : String(exception) });
      const service = requestContext.getStore()?.service;
      return throwError(() => unavailable(service ? `the ${service} service's database` : 'a database').toWire());
    }
    this.logger.error(exception instanceof Error ? exception : String(exception));
    return throwError(() => ({ code: 'INTERNAL_ERROR', message: 'internal error' }) satisfies RpcErrorPayload);
  }
}
