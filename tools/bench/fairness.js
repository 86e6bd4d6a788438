// @ts-check
// The fairness scenarios of `npm run bench`: one client floods GET /book?limit=50 over
// 100,000 bookings, or POST /v2/rates for a city, from many connections (within its rate
// limit: the benchmark sets a huge one), while another client's own GET /book?limit=50 is
// measured open-loop at a fixed rate; the same measurement without the flood is the reference. What keeps the
// flood from taking the other client's share is the gateway: a client's expensive
// requests in flight are bounded (CLIENT_MAX_IN_FLIGHT; the ones over it answered 429,
// held up to REFUSAL_HOLD_MS first), and list pages and V2 rates go into the services a
// few at a time (PAGE_CONCURRENCY, V2_RATES_CONCURRENCY), per client in turn.
const { openLoop } = require('./open-loop');

const VICTIM_RATE = 50;
const VICTIM_CONNECTIONS = 4;

/**
 * What the flood got: its answers per second, 2xx and 429, and the others.
 * @typedef {{ admittedPerSecond: number, refusedPerSecond: number, otherNon2xx: number, errors: number }} Flood
 */

/**
 * @param {{ gateway: string, floodHeaders: Record<string, string>, victimHeaders: Record<string, string>, floodConnections: number, runAutocannon: (options: import('autocannon').Options, durationS: number) => Promise<import('autocannon').Result>, flood?: { path: string, method?: string, body?: string, requests?: import('autocannon').Request[], anonymous?: boolean } }} setup
 *   `flood`: the flooding client's request (default: GET /book?limit=50); `requests`, autocannon's
 *   requests to take in turn instead; `anonymous`, sent without the flooding client's credential
 * @returns {(durationS: number, warmupS: number) => Promise<import('./open-loop').LoadResult & { flood: Flood | null }>} one measurement: the other client's latency, and what the flood got
 */
function fairness({ gateway, floodHeaders, victimHeaders, floodConnections, runAutocannon, flood: floodRequest = { path: '/book?limit=50' } }) {
  return async (durationS, warmupS) => {
    const victim = openLoop({
      url: `${gateway}/book?limit=50`,
      headers: victimHeaders,
      paths: ['/book?limit=50'],
      rate: VICTIM_RATE,
      warmupS,
      durationS,
      connections: VICTIM_CONNECTIONS,
    });
    if (!floodConnections) return { ...(await victim), flood: null };
    // The flood runs through the other client's warm-up and measurement, and a second longer.
    const flood = runAutocannon(
      {
        url: `${gateway}${floodRequest.path}`,
        method: floodRequest.method ?? 'GET',
        body: floodRequest.body,
        headers: { ...(floodRequest.anonymous ? {} : floodHeaders), ...(floodRequest.body && { 'content-type': 'application/json' }) },
        ...(floodRequest.requests && { requests: floodRequest.requests }),
        connections: floodConnections,
      },
      warmupS + durationS + 1,
    );
    const [measured, flooded] = await Promise.all([victim, flood]);
    const refused = flooded.statusCodeStats?.['429']?.count ?? 0;
    const seconds = warmupS + durationS + 1;
    return {
      ...measured,
      flood: { admittedPerSecond: Math.round(flooded['2xx'] / seconds), refusedPerSecond: Math.round(refused / seconds), otherNon2xx: flooded.non2xx - refused, errors: flooded.errors },
    };
  };
}

module.exports = { fairness, VICTIM_RATE };
