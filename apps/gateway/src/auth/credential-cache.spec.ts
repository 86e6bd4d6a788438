import { Actor } from '@hotel/contracts';
import { DomainError } from '@hotel/platform';
import { CredentialCache } from './credential-cache';

const actor: Actor = { clientId: 1, userId: null, role: 'api', sandbox: false };

describe('CredentialCache', () => {
  afterEach(() => jest.useRealTimers());

  it('asks once within the lifetime and again after it', async () => {
    jest.useFakeTimers({ now: 1_000 });
    const lookup = jest.fn().mockResolvedValue(actor);
    const cache = new CredentialCache(5000);
    await cache.resolve('key', lookup);
    await cache.resolve('key', lookup);
    expect(lookup).toHaveBeenCalledTimes(1);
    jest.setSystemTime(7_000);
    await cache.resolve('key', lookup);
    expect(lookup).toHaveBeenCalledTimes(2);
  });

  it('remembers refusals but not outages', async () => {
    const cache = new CredentialCache(5000);
    const refused = jest.fn().mockRejectedValue(new DomainError('UNAUTHORIZED', 'no'));
    await expect(cache.resolve('bad', refused)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(cache.resolve('bad', refused)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(refused).toHaveBeenCalledTimes(1);

    const outage = jest.fn().mockRejectedValueOnce(new DomainError('SERVICE_UNAVAILABLE', 'down')).mockResolvedValueOnce(actor);
    await expect(cache.resolve('good', outage)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    await expect(cache.resolve('good', outage)).resolves.toEqual(actor);
  });

  it('shares one lookup among concurrent misses', async () => {
    let answer!: (value: Actor) => void;
    const lookup = jest.fn().mockReturnValue(new Promise<Actor>((resolve) => (answer = resolve)));
    const cache = new CredentialCache(5000);
    const callers = Array.from({ length: 10 }, () => cache.resolve('key', lookup));
    answer(actor);
    await expect(Promise.all(callers)).resolves.toEqual(Array(10).fill(actor));
    expect(lookup).toHaveBeenCalledTimes(1);
  });

  it('refreshes a key in use past half its lifetime, answering from the entry meanwhile', async () => {
    jest.useFakeTimers({ now: 1_000 });
    const revoked = new DomainError('UNAUTHORIZED', 'revoked');
    const lookup = jest.fn().mockResolvedValueOnce(actor).mockRejectedValue(revoked);
    const cache = new CredentialCache(5000);
    await cache.resolve('key', lookup);
    jest.setSystemTime(3_000);
    await expect(cache.resolve('key', lookup)).resolves.toEqual(actor);
    expect(lookup).toHaveBeenCalledTimes(1);
    jest.setSystemTime(4_000);
    // Past half its life: still answered from the entry, and looked up again behind it.
    await expect(cache.resolve('key', lookup)).resolves.toEqual(actor);
    expect(lookup).toHaveBeenCalledTimes(2);
    await Promise.resolve();
    // The refresh learnt of the revocation before the old entry ran out.
    await expect(cache.resolve('key', lookup)).rejects.toBe(revoked);
  });

  it('with a lifetime of 0 always asks', async () => {
    const lookup = jest.fn().mockResolvedValue(actor);
    const cache = new CredentialCache(0);
    await cache.resolve('key', lookup);
    await cache.resolve('key', lookup);
    expect(lookup).toHaveBeenCalledTimes(2);
  });

  it('forgets a client (or one user) at once when told, and everything on clear', async () => {
    const cache = new CredentialCache(60_000);
    const user: Actor = { clientId: 1, userId: 7, role: 'user', sandbox: false };
    const other: Actor = { clientId: 2, userId: null, role: 'api', sandbox: false };
    const lookups = { key: jest.fn().mockResolvedValue(actor), user: jest.fn().mockResolvedValue(user), other: jest.fn().mockResolvedValue(other) };
    const resolveAll = () => Promise.all([cache.resolve('key', lookups.key), cache.resolve('user', lookups.user), cache.resolve('other', lookups.other)]);
    await resolveAll();
    cache.forgetClient(1, 7);
    await resolveAll();
    expect([lookups.key, lookups.user, lookups.other].map((fn) => fn.mock.calls.length)).toEqual([1, 2, 1]);
    cache.forgetClient(1);
    await resolveAll();
    expect([lookups.key, lookups.user, lookups.other].map((fn) => fn.mock.calls.length)).toEqual([2, 3, 1]);
    cache.clear();
    await resolveAll();
    expect([lookups.key, lookups.user, lookups.other].map((fn) => fn.mock.calls.length)).toEqual([3, 4, 2]);
  });

  it('does not keep, or share, a lookup that was in flight when the client was forgotten', async () => {
    const cache = new CredentialCache(60_000);
    let answer!: (value: Actor) => void;
    const slow = jest.fn().mockReturnValueOnce(new Promise<Actor>((resolve) => (answer = resolve)));
    const inFlight = cache.resolve('key', slow);
    cache.forgetClient(1);
    const revoked = new DomainError('UNAUTHORIZED', 'revoked');
    slow.mockRejectedValueOnce(revoked);
    // A request after the revocation asks again instead of joining the old lookup.
    await expect(cache.resolve('key', slow)).rejects.toBe(revoked);
    answer(actor);
    await expect(inFlight).resolves.toEqual(actor);
    await expect(cache.resolve('key', slow)).rejects.toBe(revoked); // the refusal was kept, the old answer was not
    expect(slow).toHaveBeenCalledTimes(2);
  });
});
