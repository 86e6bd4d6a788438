import { Logger } from '@nestjs/common';
import { NatsContext, NatsOptions, ServerNats } from '@nestjs/microservices';
import { Msg, headers as natsHeaders } from 'nats';
import { HEADERS } from '@hotel/contracts';
import { acceptRequestId, requestContext } from '../logging/request-context';

/**
 * Nest's NATS server with two changes for the platform's services:
 * - each message is handled inside the request context its NATS headers carry,
 *   so every log line of the handler names the caller's request id (a Nest
 *   interceptor could do it, at the cost of an async resource per message);
 * - subjects are plain strings, so a route is the subject itself: Nest first tries
 *   JSON.parse on every incoming subject, and the exception it catches builds a
 *   stack trace per message;
 * - a handler's reply that is bytes (a Uint8Array) goes out as those bytes, marked
 *   by a header (HEADERS.RAW_REPLY), instead of as JSON in Nest's packet: large
 *   pre-serialized answers are neither escaped here nor parsed by the caller.
 */
export class PlatformNatsServer extends ServerNats {
  private readonly rpcLogger = new Logger('Rpc');
  private readonly received = new WeakMap<Msg, bigint>();
  /** The replica's id, known once the service's module has been created. */
  instance?: string;

  constructor(
    options: Required<NatsOptions>['options'],
    private readonly service: string,
  ) {
    super(options);
  }

  protected override getRouteFromPattern(pattern: string): string {
    return pattern.startsWith('{') ? super.getRouteFromPattern(pattern) : pattern;
  }

  override handleMessage(channel: string, message: Msg): Promise<unknown> {
    const requestId = acceptRequestId(message.headers?.get(HEADERS.REQUEST_ID));
    this.received.set(message, process.hrtime.bigint());
    return requestContext.run({ requestId, service: this.service, instance: this.instance }, () => super.handleMessage(channel, message as never));
  }

  /**
   * Sends bytes replies raw (see above), and logs each handled message (debug) with its
   * outcome and time when its last reply goes out.
   */
  override getPublisher(message: Msg, id: string, context: NatsContext) {
    const publishPacket = super.getPublisher(message as never, id, context);
    const publish = (packet: { response?: unknown; err?: unknown; isDisposed?: boolean }) => {
      if (!(packet.response instanceof Uint8Array) || !message.reply) return publishPacket(packet);
      const headers = natsHeaders();
      headers.set(HEADERS.RAW_REPLY, packet.isDisposed ? 'last' : 'more');
      message.respond(packet.response, { headers });
    };
    return (packet: { response?: unknown; err?: unknown; isDisposed?: boolean }) => {
      const received = this.received.get(message);
      if (received !== undefined && (packet.isDisposed || packet.err !== undefined)) {
        this.received.delete(message);
        const ms = Number(process.hrtime.bigint() - received) / 1e6;
        this.rpcLogger.debug({ msg: 'handled', subject: message.subject, outcome: packet.err === undefined ? 'ok' : 'error', ms: Math.round(ms * 100) / 100 });
      }
      return publish(packet);
    };
  }
}
