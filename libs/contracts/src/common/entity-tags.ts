/**
 * HTTP entity tags (RFC 9110 §8.8.3) as the gateway passes a client's If-None-Match on
 * to a service: `*`, or up to ten `"…"` / `W/"…"` tags. Anything else is not passed on
 * (the client gets a full answer).
 */
export const ENTITY_TAGS = /^\s*\*\s*$|^(\s*(W\/)?"[!#-~]{1,100}"\s*)(,\s*(W\/)?"[!#-~]{1,100}"\s*){0,9}$/;

/**
 * Whether an If-None-Match names the entity tag `tag` (`"…"` or `W/"…"`): `*` names
 * any; weak and strong tags compare by their value alone, the weak comparison a GET's
 * If-None-Match uses.
 */
export function matchesEntityTag(ifNoneMatch: string, tag: string): boolean {
  const value = tag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((candidate) => {
    const trimmed = candidate.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === value;
  });
}
