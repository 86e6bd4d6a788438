import { CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { FastifyRequest } from 'fastify';
import { Observable, map } from 'rxjs';
import { requestContext } from '@hotel/platform';
import { Paginated } from './paginated';

const NO_ENVELOPE = 'no-envelope';

/** For the few responses the specification gives without an envelope (POST /v2/rates). */
export const NoEnvelope = () => SetMetadata(NO_ENVELOPE, true);

export interface Envelope<T> {
  data: T;
  success: true;
  message: string | null;
}

/**
 * Wraps every successful answer in `{data, success, message}` and runs the
 * handler inside the request context, so service calls and log lines carry the
 * request id.
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const raw = this.reflector.getAllAndOverride<boolean>(NO_ENVELOPE, [context.getHandler(), context.getClass()]);
    return new Observable((subscriber) =>
      requestContext.run({ requestId: request.id, service: 'gateway' }, () =>
        next
          .handle()
          .pipe(
            map((data) => {
              if (raw) return data;
              if (data instanceof Paginated) return { data: data.items, total: data.total, success: true, message: null };
              return { data, success: true, message: null } satisfies Envelope<unknown>;
            }),
          )
          .subscribe(subscriber),
      ),
    );
  }
}
