import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { SecretBox } from '../endpoints/secret-box';
import { RetrySchedule } from './retry-schedule';
import { newSigningSecret, signatureHeader } from './signature';
import { TargetPolicy, guardedLookup, isPublicAddress, targetProblem } from './target-policy';
import { WebhookPoster } from './webhook-post';
import { loadEnv } from '@hotel/platform';
import { DEFAULT_RETRY_SCHEDULE_S, WebhooksEnv } from '../webhooks.env';

const DATABASE = { DATABASE_URL: 'postgres://u@h/db' };
/** The policy of every deployment: no variable set, in development as in production. */
const DEFAULT = TargetPolicy.of(loadEnv(WebhooksEnv, DATABASE));
const LOCAL_TESTING = TargetPolicy.of(loadEnv(WebhooksEnv, { ...DATABASE, WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' }));

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

  it('takes only https URLs of public hosts, in development as in production; only local testing takes http and loopback', () => {
    expect(TargetPolicy.of(loadEnv(WebhooksEnv, { ...DATABASE, NODE_ENV: 'development' }))).toBe(TargetPolicy.PUBLIC_HTTPS);
    expect(DEFAULT).toBe(TargetPolicy.PUBLIC_HTTPS);
    expect(targetProblem('https://hooks.example.com/x', DEFAULT)).toBeNull();
    expect(targetProblem('http://hooks.example.com/x', DEFAULT)).toBe('url must be an https URL');
    for (const url of [
      'https://127.0.0.1/x',
      'https://[::1]/x',
      'https://169.254.169.254/latest',
      'https://[fd00:ec2::254]/latest',
      'https://localhost/x',
      'https://hooks.localhost/x',
      'https://2130706433/x',
      'https://10.0.0.1:8443/x',
      'https://172.20.1.1/x',
      'https://192.168.1.10/x',
      'https://[fe80::1]/x',
    ]) {
      expect([url, targetProblem(url, DEFAULT)]).toEqual([url, 'url must point to a public address']);
    }
    expect(targetProblem('http://127.0.0.1:4000/hook', LOCAL_TESTING)).toBeNull();
    expect(targetProblem('https://192.168.1.10/hook', LOCAL_TESTING)).toBeNull();
    expect(targetProblem('ftp://example.com/', LOCAL_TESTING)).toBe('url must be an http or https URL');
    expect(targetProblem('https://user:pw@example.com/', DEFAULT)).toBe('url must not contain a user name or password');
    expect(targetProblem('nonsense', DEFAULT)).toBe('url must be an absolute http or https URL');
  });

  it('WEBHOOK_ALLOW_PRIVATE_TARGETS takes 0 or 1, and 1 is refused with NODE_ENV=production', () => {
    expect(loadEnv(WebhooksEnv, DATABASE).WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe('0');
    expect(() => loadEnv(WebhooksEnv, { ...DATABASE, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'yes' })).toThrow(/WEBHOOK_ALLOW_PRIVATE_TARGETS/);
    const production = { ...DATABASE, NODE_ENV: 'production', NATS_NKEY_SEED: `SU${'A'.repeat(56)}`, WEBHOOK_SECRET_KEY: 'Zq3v9LkX0pR7sT2mW8nB4cY6dF1gH5jK-_aE' };
    expect(loadEnv(WebhooksEnv, { ...production, WEBHOOK_ALLOW_PRIVATE_TARGETS: '0' }).WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe('0');
    expect(() => loadEnv(WebhooksEnv, { ...production, WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' })).toThrow(/WEBHOOK_ALLOW_PRIVATE_TARGETS=1 is for local testing only: refused with NODE_ENV=production/);
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

    it('a name that resolves to a loopback address is refused by the lookup the connection uses', async () => {
      // As if a name registered while public now resolved to loopback (DNS rebinding): the lookup refuses it.
      const lookup = (policy: TargetPolicy) =>
        new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((resolve) => guardedLookup(policy)('localhost', {}, (error, address) => resolve({ error, address })));
      expect((await lookup(DEFAULT)).error).toMatchObject({ code: 'ENOTPUBLIC', message: 'localhost does not resolve to a public address' });
      expect(await lookup(LOCAL_TESTING)).toEqual({ error: null, address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/) });
      const poster = new WebhookPoster(new TargetPolicy(false, true), 2000);
      expect(await poster.post(`http://127.0.0.1:${port}/hook`, '{}', {})).toEqual({ statusCode: null, error: 'url must point to a public address', durationMs: null });
      poster.close();
      expect(hits).toBe(0);
    });

    it('in local testing the same target is posted to; a redirect is a failed attempt, not followed', async () => {
      const poster = new WebhookPoster(LOCAL_TESTING, 2000);
      expect(await poster.post(`http://localhost:${port}/hook`, '{}', {})).toEqual({ statusCode: 200, error: null, durationMs: expect.any(Number) });
      expect(await poster.post(`http://127.0.0.1:${port}/redirect`, '{}', {})).toEqual({ statusCode: 302, error: 'HTTP 302', durationMs: expect.any(Number) });
      poster.close();
      expect(hits).toBe(2);
    });

    it('keeps nothing of an answer that is not 2xx but its status, and times the attempt', async () => {
      const body = 'internal admin console: version 1.2.3, user root, token abc';
      const slow = createServer((request, response) => {
        request.resume();
        setTimeout(() => response.writeHead(500, { 'content-type': 'text/plain' }).end(body), 120);
      });
      await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
      const poster = new WebhookPoster(LOCAL_TESTING, 2000);
      try {
        const outcome = await poster.post(`http://127.0.0.1:${(slow.address() as AddressInfo).port}/hook`, '{}', {});
        expect(outcome).toEqual({ statusCode: 500, error: 'HTTP 500', durationMs: expect.any(Number) });
        expect(outcome.durationMs).toBeGreaterThanOrEqual(100);
        expect(JSON.stringify(outcome)).not.toContain('admin');
      } finally {
        poster.close();
        slow.closeAllConnections();
        slow.close();
      }
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
      const poster = new WebhookPoster(LOCAL_TESTING, 1500);
      try {
        // More attempts than the agent's connections per target (8): the last ones wait for a connection.
        const outcomes = await Promise.all(Array.from({ length: 10 }, () => poster.post(url, '{}', {})));
        expect(outcomes.filter((outcome) => outcome.statusCode === 200).length).toBeGreaterThanOrEqual(8);
        for (const outcome of outcomes) expect(outcome.statusCode === 200 || outcome.error === 'no answer within 1500 ms').toBe(true);
        // Every connection is dropped once its body has taken longer than the timeout.
        for (let tries = 0; open.size > 0 && tries < 100; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
        expect(open.size).toBe(0);
        // And the target is reachable again.
        expect(await poster.post(url, '{}', {})).toEqual({ statusCode: 200, error: null, durationMs: expect.any(Number) });
      } finally {
        poster.close();
        trickle.closeAllConnections();
        trickle.close();
      }
    });
  });
});
