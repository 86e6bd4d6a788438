import { ArgumentsHost, CallHandler, Catch, ExceptionFilter, ExecutionContext, HttpException, Inject, Injectable, Logger, NestInterceptor, ValidationError, ValidationPipe } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Observable, map } from 'rxjs';
import { SIMULATOR_CLOCK, type SimulatorClock } from '../clock';
import { VendorError, auditData, invalidRequest } from './vendor-errors';
import { sendGatewayAnswer, sendVendorError } from './vendor-wire';

/**
 * Every failure under a route as the vendor answers it: its formatted errors (VendorError,
 * and a 4xx of the framework as INVALID_REQUEST), its gateway's 404 and 415 pages, and
 * anything unexpected as SYSTEM_ERROR (logged).
 */
@Catch()
export class VendorExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('vendor-simulator');

  constructor(@Inject(SIMULATOR_CLOCK) private readonly clock: SimulatorClock) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const now = this.clock.now();
    if (exception instanceof VendorError) {
      sendVendorError(request, reply, exception, now);
      return;
    }
    const status = exception instanceof HttpException ? exception.getStatus() : (exception as { statusCode?: unknown })?.statusCode;
    if (status === 404) {
      sendGatewayAnswer(reply, { status: 404, text: 'Not Found' });
    } else if (status === 415) {
      sendGatewayAnswer(reply, { status: 415, text: 'Unsupported Media Type' });
    } else if (typeof status === 'number' && status >= 400 && status < 500) {
      sendVendorError(request, reply, new VendorError(status, 'INVALID_REQUEST', exception instanceof Error ? exception.message : 'Invalid request'), now);
    } else {
      this.logger.error(exception instanceof Error ? exception : String(exception));
      sendVendorError(request, reply, new VendorError(500, 'SYSTEM_ERROR', 'System error'), now);
    }
  }
}

/** Puts the vendor's `auditData` first in every answer of a vendor route. */
@Injectable()
export class AuditDataInterceptor implements NestInterceptor {
  constructor(@Inject(SIMULATOR_CLOCK) private readonly clock: SimulatorClock) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    return next.handle().pipe(
      map((body: unknown) =>
        request.vendorContext && typeof body === 'object' && body !== null ? { auditData: auditData(this.clock.now(), request.vendorContext.startedAt, request.ip), ...body } : body,
      ),
    );
  }
}

/** Request bodies and queries checked against their classes; what does not fit is the vendor's INVALID_REQUEST. */
export function vendorValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    exceptionFactory: (errors: ValidationError[]) => invalidRequest(describe(errors).slice(0, 5).join('; ')),
  });
}

function describe(errors: ValidationError[], path = ''): string[] {
  return errors.flatMap((error) => {
    const where = path ? `${path}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => `${where}: ${message}`);
    return [...own, ...describe(error.children ?? [], where)];
  });
}
