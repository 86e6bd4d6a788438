import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import { NatsContext } from '@nestjs/microservices';
import { Observable } from 'rxjs';
import { HEADERS } from '@hotel/contracts';
import { acceptRequestId, requestContext } from '../logging/request-context';

/**
 * Runs each message handler inside the request context carried in the NATS
 * headers, so every log line the handler writes names the caller's request id.
 */
@Injectable()
export class RpcContextInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Rpc');

  constructor(
    private readonly service: string,
    private readonly instance: string,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const nats = context.switchToRpc().getContext<NatsContext>();
    const requestId = acceptRequestId(nats.getHeaders?.()?.get(HEADERS.REQUEST_ID));
    const subject = nats.getSubject();
    const started = process.hrtime.bigint();
    return new Observable((subscriber) =>
      requestContext.run({ requestId, service: this.service, instance: this.instance }, () =>
        next.handle().subscribe({
          next: (value) => subscriber.next(value),
          error: (error) => {
            this.log(subject, started, 'error');
            subscriber.error(error);
          },
          complete: () => {
            this.log(subject, started, 'ok');
            subscriber.complete();
          },
        }),
      ),
    );
  }

  private log(subject: string, started: bigint, outcome: string) {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    this.logger.debug({ msg: 'handled', subject, outcome, ms: Math.round(ms * 100) / 100 });
  }
}
