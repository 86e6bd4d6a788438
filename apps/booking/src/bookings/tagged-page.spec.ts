import { taggedPage } from './tagged-page';

const bytes = (text: string) => Buffer.from(text);

describe('taggedPage', () => {
  const chunks = [bytes('{"id":1}'), bytes(',{"id":2}')];

  it('tags a page by its total and bytes: the same page the same tag, any change another', () => {
    const [head, ...rest] = taggedPage(2, chunks, undefined);
    expect(head).toEqual({ total: 2, etag: expect.stringMatching(/^W\/"[A-Za-z0-9_-]{27}"$/) });
    expect(rest).toEqual(chunks);
    const tagOf = (total: number, parts: Uint8Array[]) => (taggedPage(total, parts, undefined)[0] as { etag: string }).etag;
    const etag = (head as { etag: string }).etag;
    expect(tagOf(2, [bytes('{"id":1}'), bytes(',{"id":2}')])).toBe(etag);
    expect(tagOf(3, chunks)).not.toBe(etag);
    expect(tagOf(2, [bytes('{"id":1}'), bytes(',{"id":3}')])).not.toBe(etag);
    expect(tagOf(2, [])).not.toBe(tagOf(3, []));
  });

  it('answers the head alone, not modified, when If-None-Match names the tag', () => {
    const [{ etag }] = taggedPage(2, chunks, undefined) as unknown as [{ etag: string }];
    expect(taggedPage(2, chunks, etag)).toEqual([{ total: 2, etag, notModified: true }]);
    expect(taggedPage(2, chunks, `"x", ${etag.slice(2)}`)).toEqual([{ total: 2, etag, notModified: true }]);
    expect(taggedPage(2, chunks, '"x"')).toHaveLength(3);
  });
});
