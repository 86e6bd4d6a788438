import { PlacesReply } from '@hotel/contracts';
import { PlacesCache } from './places-cache';

const reply = (name: string) => ({ places: [{ name }] }) as unknown as PlacesReply;

describe('PlacesCache', () => {
  it('answers a repeat from memory, and concurrent misses share one load', async () => {
    const cache = new PlacesCache(60_000);
    let loads = 0;
    const load = async () => {
      loads++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return reply('Paris');
    };
    const answers = await Promise.all(Array.from({ length: 5 }, () => cache.get('par', load)));
    expect(answers.every((answer) => answer === answers[0])).toBe(true);
    expect(await cache.get('par', load)).toBe(answers[0]);
    expect(loads).toBe(1);
  });

  it('loads again once an answer is older than its lifetime', async () => {
    const cache = new PlacesCache(30);
    let loads = 0;
    const load = async () => reply(`v${++loads}`);
    await cache.get('lon', load);
    await new Promise((resolve) => setTimeout(resolve, 60));
    await cache.get('lon', load);
    expect(loads).toBe(2);
  });

  it('keeps no failure: the next call asks again', async () => {
    const cache = new PlacesCache(60_000);
    await expect(cache.get('ber', () => Promise.reject(new Error('search service down')))).rejects.toThrow('search service down');
    expect(await cache.get('ber', async () => reply('Berlin'))).toEqual(reply('Berlin'));
  });
});
