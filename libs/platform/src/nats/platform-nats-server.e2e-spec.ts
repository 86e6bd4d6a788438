import { Controller, INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern } from '@nestjs/microservices';
import { SUBJECTS } from '@hotel/contracts';
import { TestNats, startTcpProxy, startTestNats } from '@hotel/testing';
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

/** Told when a replica of StoppingQuotes gets its first request: the test stops that replica then. */
let firstRequest: (() => void) | undefined;

@Controller()
class StoppingQuotes {
  @MessagePattern(SUBJECTS.PROMO_CODE_QUOTE)
  quote(): object {
    firstRequest?.();
    firstRequest = undefined;
    return { code: 'STOPPING', discount: '1.00', currency: 'EUR' };
  }
}

@Module({ controllers: [StoppingQuotes] })
class StoppingQuotesModule {}

@Controller()
class StayingQuotes {
  @MessagePattern(SUBJECTS.PROMO_CODE_QUOTE)
  quote(): object {
    return { code: 'STAYING', discount: '1.00', currency: 'EUR' };
  }
}

@Module({ controllers: [StayingQuotes] })
class StayingQuotesModule {}

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
    for (const until = Date.now() + 10_000; !release; await new Promise((resolve) => setTimeout(resolve, 10))) {
      if (Date.now() > until) throw new Error(`the request never reached the replica: ${String(await answer.catch((error: unknown) => error))}`);
    }
    const started = Date.now();
    await app.close();
    expect(await answer).toEqual({ code: 'SLOW', discount: '1.00', currency: 'EUR' });
    // Nest's own close waited the whole period (30 s here) however little was in hand.
    expect(Date.now() - started).toBeLessThan(GRACE_MS / 3);
  });

  it('drops no request the broker had already sent it: with another replica beside it, every request of a steady load is answered', async () => {
    const staying = await NestFactory.createMicroservice(StayingQuotesModule, { strategy: natsServer('promo', nats.bus('promo'), GRACE_MS), logger: false });
    await staying.listen();
    // The stopping replica reaches the broker over a link 50 ms long each way, so that requests
    // are on their way to it, and its unsubscription on its way to the broker, when it stops.
    const link = await startTcpProxy({ host: '127.0.0.1', port: Number(new URL(nats.url).port) }, { latencyMs: 50 });
    const stopping = await NestFactory.createMicroservice(StoppingQuotesModule, {
      strategy: natsServer('promo', { ...nats.bus('promo'), url: `nats://127.0.0.1:${link.port}` }, GRACE_MS),
      logger: false,
    });
    await stopping.listen();
    let closed: Promise<void> | undefined;
    // Stopped at its first request, while the load goes on.
    firstRequest = () => {
      closed = stopping.close();
    };
    // A dropped request is never answered; a slow one (a loaded machine) is, within this timeout.
    const quick = new ServiceClient(nats.bus('gateway'), 15_000);
    await quick.connect();
    try {
      const sent: Promise<unknown>[] = [];
      for (let wave = 0; wave < 40; wave++) {
        for (let i = 0; i < 10; i++) sent.push(quick.send(SUBJECTS.PROMO_CODE_QUOTE, { code: 'X', amount: '10.00', currency: 'EUR', sandbox: false }));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const answers = await Promise.allSettled(sent);
      const codes = answers.map((answer) => (answer.status === 'fulfilled' ? (answer.value as { code: string }).code : `lost: ${(answer.reason as Error).message}`));
      expect(codes.filter((code) => code.startsWith('lost'))).toEqual([]);
      expect(codes).toContain('STOPPING');
      expect(codes).toContain('STAYING');
      await closed;
    } finally {
      await quick.close();
      await staying.close();
      await link.close();
    }
  });

  it('stops at once with nothing in hand, and a request after it goes to no one (503)', async () => {
    const app = await startReplica();
    const started = Date.now();
    await app.close();
    expect(Date.now() - started).toBeLessThan(GRACE_MS / 3);
    await expect(quote()).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});
