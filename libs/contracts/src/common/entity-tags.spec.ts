import { ENTITY_TAGS, matchesEntityTag } from './entity-tags';

describe('entity tags', () => {
  it('accepts what an If-None-Match may hold and nothing else', () => {
    for (const header of ['*', '"abc"', 'W/"abc"', ' "a" , W/"b"', Array.from({ length: 10 }, (_, i) => `"t${i}"`).join(', ')]) expect(ENTITY_TAGS.test(header)).toBe(true);
    for (const header of ['', 'abc', '"a b"', '"a', 'W/abc', `"${'x'.repeat(101)}"`, Array.from({ length: 11 }, (_, i) => `"t${i}"`).join(','), '"a"\n"b"']) expect(ENTITY_TAGS.test(header)).toBe(false);
  });

  it('matches by value, weak or strong, and * matches any', () => {
    expect(matchesEntityTag('"abc"', 'W/"abc"')).toBe(true);
    expect(matchesEntityTag('W/"abc"', '"abc"')).toBe(true);
    expect(matchesEntityTag('"x", W/"abc"', 'W/"abc"')).toBe(true);
    expect(matchesEntityTag('*', 'W/"abc"')).toBe(true);
    expect(matchesEntityTag('"abd"', 'W/"abc"')).toBe(false);
    expect(matchesEntityTag('"ab"', '"abc"')).toBe(false);
  });
});
