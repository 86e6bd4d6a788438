import { Controller, INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern } from '@nestjs/microservices';
import { SUBJECTS } from '@hotel/contracts';
import { TestNats, startTestNats } from '@hotel/testing';
import { natsServer } from './nats-options';
import { ServiceClient } from './service-client';

/** How long the stand-in promo service takes to answer, and the grace period a close may take at most. */
const HANDLER_MS = 300;
const GRACE_MS = 30_000;

let release: (() => void) | undefined;

@Controller()
class SlowQuotes {
  @MessagePattern(SUBJECTS.PROMO_CODE_QUOTE)
  async quote(): Promise<object> {
    await new Promise<void>((resolve) => {
      release = resolve;
      setTimeout(resolve, HANDLER_MS);
    });
    return { code: 'SLOW', discount: '1.00', currency: 'EUR' };
  }
}

@Module({ controllers: [SlowQuotes] })
class SlowQuotesModule {}

/**
 * A replica stopping gracefully (SIGTERM in a rolling upgrade) over a real broker: it
 * answers what it has in hand, takes nothing new, and stops as soon as it has answered,
 * not after the whole grace period.
 */
describe('PlatformNatsServer closing', () => {
  let nats: TestNats;
  let caller: ServiceClient;

  beforeAll(async () => {
    nats = await startTestNats();
    caller = new ServiceClient(nats.bus('gateway'), 10_000);
    await caller.connect();
  });
  afterAll(async () => {
    await caller?.close();
    await nats?.stop();
  });

  async function startReplica(): Promise<INestMicroservice> {
    const app = await NestFactory.createMicroservice(SlowQuotesModule, { strategy: natsServer('promo', nats.bus('promo'), GRACE_MS), logger: false });
    await app.listen();
    return app;
  }

  const quote = () => caller.send(SUBJECTS.PROMO_CODE_QUOTE, { code: 'SLOW', amount: '10.00', currency: 'EUR', sandbox: false });

  it('answers the request in hand, then stops long before the grace period is over', async () => {
    const app = await startReplica();
    const answer = quote();
    while (!release) await new Promise((resolve) => setTimeout(resolve, 10));
    const started = Date.now();
    await app.close();
    expect(await answer).toEqual({ code: 'SLOW', discount: '1.00', currency: 'EUR' });
    // Nest's own close waited the whole period (30 s here) however little was in hand.
    expect(Date.now() - started).toBeLessThan(GRACE_MS / 3);
  });

  it('stops at once with nothing in hand, and a request after it goes to no one (503)', async () => {
    const app = await startReplica();
    const started = Date.now();
    await app.close();
    expect(Date.now() - started).toBeLessThan(GRACE_MS / 3);
    await expect(quote()).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});
