import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { BOOKING_EVENT_TYPES, BookingEvent, BookingEventType, HEADERS, STREAMS, WEBHOOKS_CONSUMER, bookingWebhookPayload } from '@hotel/contracts';
import { SERVICE_CLIENT, SERVICE_ENV, ServiceClient, StreamMessage, StreamReading } from '@hotel/platform';
import { WebhooksEnv } from '../webhooks.env';
import { EndpointClients } from '../endpoints/endpoint-clients';
import { WebhookEndpointsRepository } from '../endpoints/webhook-endpoints.repository';
import { WebhooksFailPoints } from '../webhooks-fail-points';
import { WebhookDeliveriesRepository, WebhookEvent } from './webhook-deliveries.repository';
import { WebhookDispatcher } from './webhook-dispatcher';

const logger = new Logger('BookingEventsConsumer');

/** A message whose deliveries could not be written (the database away) comes back after this. */
const RETRY_DELAY_MS = 2000;
/** Messages held at once: few, so that a replica that dies holds few back (each until its acknowledgement is overdue). */
const BATCH = 10;

/**
 * Reads the BOOKING_EVENTS stream through the service's durable consumer (replicas
 * share it) and writes, for each event, a pending delivery to every endpoint of the
 * booking's client that subscribes to its type; the message is acknowledged only
 * once they are written, so no event is lost to a crash, and a repeat writes nothing
 * twice. For a client with endpoints it also records that the event was seen: a
 * booking's later event is not sent before an earlier one has been (one held by a
 * replica that died comes again after WEBHOOK_ACK_WAIT_S, and a later one may overtake
 * it here). The dispatcher then attempts them.
 */
@Injectable()
export class BookingEventsConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private reading?: StreamReading;

  constructor(
    @Inject(SERVICE_CLIENT) private readonly services: ServiceClient,
    @Inject(SERVICE_ENV) private readonly env: WebhooksEnv,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly endpointClients: EndpointClients,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly dispatcher: WebhookDispatcher,
    private readonly failPoints: WebhooksFailPoints,
  ) {}

  onApplicationBootstrap() {
    this.reading = this.services.consumeStream(
      { stream: STREAMS.BOOKING_EVENTS.name, name: WEBHOOKS_CONSUMER, ackWaitMs: this.env.WEBHOOK_ACK_WAIT_S * 1000, retryDelayMs: RETRY_DELAY_MS, batch: BATCH },
      (message) => this.handle(message),
    );
  }

  async onModuleDestroy() {
    await this.reading?.stop();
  }

  private async handle(message: StreamMessage): Promise<void> {
    const event = parseEvent(message);
    if (!event) {
      // Only the booking service may publish here, so this is a bug, not an attack: kept out of the way, logged.
      logger.error({ msg: 'a booking event that cannot be read was skipped', subject: message.subject });
      return;
    }
    this.failPoints.pass('event-received');
    // Most events are of clients without an endpoint: skipped without reading endpoints.
    if (!(await this.endpointClients.mayBeOwed(event.clientId, event.happenedAt))) return;
    const { subscribed, anyEndpoint } = await this.endpoints.subscribers(event.clientId, event.type as BookingEventType, event.happenedAt);
    // A client without endpoints has nothing to order: nothing is written for it.
    if (!anyEndpoint) return;
    await this.deliveries.add(event, subscribed);
    this.failPoints.pass('after-deliveries-persisted');
    // A later event of the booking may have been waiting for this one.
    this.dispatcher.nudge();
  }
}

/** The event of a stream message, with the partner's payload rendered from its booking; null when it is not a booking event this release reads. */
export function parseEvent(message: StreamMessage): (WebhookEvent & { happenedAt: Date }) | null {
  const id = message.header('Nats-Msg-Id');
  const clientId = Number(message.header(HEADERS.CLIENT_ID));
  let event: Partial<BookingEvent>;
  try {
    event = JSON.parse(new TextDecoder().decode(message.data)) as Partial<BookingEvent>;
  } catch {
    return null;
  }
  const happenedAt = new Date(event.timestamp ?? '');
  const bookingId = event.booking?.id;
  if (!id || !Number.isSafeInteger(clientId) || clientId <= 0) return null;
  if (!BOOKING_EVENT_TYPES.includes(event.type as BookingEventType) || Number.isNaN(happenedAt.getTime())) return null;
  if (!Number.isSafeInteger(bookingId) || !Number.isSafeInteger(event.sequence)) return null;
  let payload: string;
  try {
    payload = bookingWebhookPayload(event as BookingEvent);
  } catch (error) {
    // A booking this release cannot render: a bug (only the booking service publishes here), named in the log.
    logger.error({ msg: 'a booking event could not be rendered', bookingId, error: error instanceof Error ? error.message : String(error) });
    return null;
  }
  return { id, type: event.type as BookingEventType, clientId, bookingId: bookingId!, sequence: event.sequence!, payload, happenedAt };
}
