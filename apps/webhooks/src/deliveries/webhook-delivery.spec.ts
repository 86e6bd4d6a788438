import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { SecretBox } from '../endpoints/secret-box';
import { RetrySchedule } from './retry-schedule';
import { newSigningSecret, signatureHeader } from './signature';
import { TargetPolicy, guardedLookup, isPublicAddress, targetProblem } from './target-policy';
import { WebhookPoster } from './webhook-post';
import { DEFAULT_RETRY_SCHEDULE_S } from '../webhooks.env';

const PRODUCTION = TargetPolicy.forEnvironment('production');
const DEVELOPMENT = TargetPolicy.forEnvironment(undefined);

describe('webhook signatures', () => {
  it('verify with the standardwebhooks package, and with either secret while two sign', () => {
    const [current, previous] = [newSigningSecret(), newSigningSecret()];
    expect(current).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = JSON.stringify({ type: 'booking.confirmed', timestamp: '2026-11-25T06:00:00.000Z', data: { id: 7 } });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = { 'webhook-id': 'evt-1', 'webhook-timestamp': String(timestamp), 'webhook-signature': signatureHeader([current, previous], 'evt-1', timestamp, body) };
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(current).verify(body.replace('7', '8'), headers)).toThrow();
    // The package signs exactly as we do.
    expect(signatureHeader([current], 'evt-1', timestamp, body)).toBe(new Webhook(current).sign('evt-1', new Date(timestamp * 1000), body));
  });
});

describe('SecretBox', () => {
  it('seals so that only the same key opens, and never stores the secret as it is', () => {
    const box = new SecretBox('a key of at least sixteen');
    const sealed = box.seal('whsec_abc');
    expect(sealed).not.toContain('abc');
    expect(box.seal('whsec_abc')).not.toBe(sealed); // a new IV each time
    expect(box.open(sealed)).toBe('whsec_abc');
    expect(() => new SecretBox('another key entirely').open(sealed)).toThrow();
    expect(() => box.open(sealed.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A')))).toThrow();
  });
});

describe('RetrySchedule', () => {
  it('the default retries for about 72 hours', () => {
    const schedule = new RetrySchedule(DEFAULT_RETRY_SCHEDULE_S);
    const total = schedule.delaysS.reduce((sum, delay) => sum + delay, 0);
    expect(total / 3600).toBeGreaterThan(71);
    expect(total / 3600).toBeLessThanOrEqual(72);
    expect(schedule.maxAttempts).toBe(10);
  });

  it('gives each delay with ±10 % jitter, then none', () => {
    const low = new RetrySchedule('5,300', () => 0);
    const high = new RetrySchedule('5,300', () => 1);
    expect([low.nextDelayMs(1), high.nextDelayMs(1)]).toEqual([4500, 5500]);
    expect([low.nextDelayMs(2), high.nextDelayMs(2)]).toEqual([270_000, 330_000]);
    expect(low.nextDelayMs(3)).toBeNull();
  });
});

describe('target policy (SSRF guard)', () => {
  it.each([
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['172.31.255.255', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['224.0.0.1', false],
    ['::1', false],
    ['fe80::1', false],
    ['fd00:ec2::254', false],
    ['::ffff:127.0.0.1', false],
    ['64:ff9b::7f00:1', false],
    ['::127.0.0.1', false],
    ['::ffff:0:7f00:1', false],
    ['2002:a9fe:a9fe::1', false],
    ['fec0::1', false],
    ['93.184.216.34', true],
    ['172.32.0.1', true],
    ['2606:4700::1111', true],
    ['64:ff9b::5db8:d822', true],
  ])('%s is public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it('production takes only https URLs of public hosts; development takes http and loopback', () => {
    expect(targetProblem('https://hooks.example.com/x', PRODUCTION)).toBeNull();
    expect(targetProblem('http://hooks.example.com/x', PRODUCTION)).toBe('url must be an https URL');
    for (const url of ['https://127.0.0.1/x', 'https://[::1]/x', 'https://169.254.169.254/latest', 'https://localhost/x', 'https://2130706433/x', 'https://10.0.0.1:8443/x']) {
      expect([url, targetProblem(url, PRODUCTION)]).toEqual([url, 'url must point to a public address']);
    }
    expect(targetProblem('http://127.0.0.1:4000/hook', DEVELOPMENT)).toBeNull();
    expect(targetProblem('ftp://example.com/', DEVELOPMENT)).toBe('url must be an http or https URL');
    expect(targetProblem('https://user:pw@example.com/', PRODUCTION)).toBe('url must not contain a user name or password');
    expect(targetProblem('nonsense', PRODUCTION)).toBe('url must be an absolute http or https URL');
  });

  describe('at delivery', () => {
    let server: Server;
    let port: number;
    let hits = 0;
    beforeAll(async () => {
      server = createServer((request, response) => {
        hits++;
        request.resume();
        response.writeHead(request.url === '/redirect' ? 302 : 200, request.url === '/redirect' ? { location: 'http://127.0.0.1/' } : {});
        response.end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    it('a name that resolves to a loopback address is refused by the lookup the connection uses, in production', async () => {
      // As if a name registered while public now resolved to loopback (DNS rebinding): the lookup refuses it.
      const lookup = (policy: TargetPolicy) =>
        new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((resolve) => guardedLookup(policy)('localhost', {}, (error, address) => resolve({ error, address })));
      expect((await lookup(PRODUCTION)).error).toMatchObject({ code: 'ENOTPUBLIC', message: 'localhost does not resolve to a public address' });
      expect(await lookup(DEVELOPMENT)).toEqual({ error: null, address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/) });
      const poster = new WebhookPoster(new TargetPolicy(false, true), 2000);
      expect(await poster.post(`http://127.0.0.1:${port}/hook`, '{}', {})).toEqual({ statusCode: null, error: 'url must point to a public address' });
      poster.close();
      expect(hits).toBe(0);
    });

    it('in development the same target is posted to; a redirect is a failed attempt, not followed', async () => {
      const poster = new WebhookPoster(DEVELOPMENT, 2000);
      expect(await poster.post(`http://localhost:${port}/hook`, '{}', {})).toEqual({ statusCode: 200, error: null });
      expect(await poster.post(`http://127.0.0.1:${port}/redirect`, '{}', {})).toEqual({ statusCode: 302, error: 'HTTP 302' });
      poster.close();
      expect(hits).toBe(2);
    });
  });

  describe('a receiver that answers 2xx and then never finishes its body', () => {
    it('keeps no connection past the timeout, and an attempt queued behind it still settles at its timeout', async () => {
      const open = new Set<import('node:net').Socket>();
      // 200 and one byte of body, then silence.
      const trickle = createServer((_request, response) => {
        response.writeHead(200);
        response.write('x');
      });
      trickle.on('connection', (socket) => {
        open.add(socket);
        socket.on('close', () => open.delete(socket));
      });
      await new Promise<void>((resolve) => trickle.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(trickle.address() as AddressInfo).port}/`;
      // A timeout a loaded machine's first 8 answers' heads arrive well within (300 ms did not, once).
      const poster = new WebhookPoster(DEVELOPMENT, 1500);
      try {
        // More attempts than the agent's connections per target (8): the last ones wait for a connection.
        const outcomes = await Promise.all(Array.from({ length: 10 }, () => poster.post(url, '{}', {})));
        expect(outcomes.filter((outcome) => outcome.statusCode === 200).length).toBeGreaterThanOrEqual(8);
        for (const outcome of outcomes) expect(outcome.statusCode === 200 || outcome.error === 'no answer within 1500 ms').toBe(true);
        // Every connection is dropped once its body has taken longer than the timeout.
        for (let tries = 0; open.size > 0 && tries < 100; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
        expect(open.size).toBe(0);
        // And the target is reachable again.
        expect(await poster.post(url, '{}', {})).toEqual({ statusCode: 200, error: null });
      } finally {
        poster.close();
        trickle.closeAllConnections();
        trickle.close();
      }
    });
  });
});
