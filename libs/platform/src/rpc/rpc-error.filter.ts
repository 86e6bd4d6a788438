import { ArgumentsHost, Catch, Logger, RpcExceptionFilter } from '@nestjs/common';
import { Observable, throwError } from 'rxjs';
import { RpcErrorPayload } from '@hotel/contracts';
import { DomainError } from '../errors/domain-error';

/**
 * Turns whatever a message handler throws into an {@link RpcErrorPayload}. A plain
 * Error would arrive at the caller as Nest's generic "Internal server error", so
 * unexpected errors are logged here (with the request id) and answered generically.
 */
@Catch()
export class RpcErrorFilter implements RpcExceptionFilter<unknown> {
  private readonly logger = new Logger('RpcErrorFilter');

  catch(exception: unknown, _host: ArgumentsHost): Observable<RpcErrorPayload> {
    if (exception instanceof DomainError) return throwError(() => exception.toWire());
    this.logger.error(exception instanceof Error ? exception : String(exception));
    return throwError(() => ({ code: 'INTERNAL_ERROR', message: 'internal error' }) satisfies RpcErrorPayload);
  }
}
