// @ts-check
// V8 flags per app, chosen from `npm run bench` (docs/engineering/benchmarks.md#memory):
// the one place they are written; `npm start`, `npm run cluster` and the chaos runs pass
// them (tools/lib/supervisor.js), and docker-compose.yml and deploy/ set the same
// NODE_OPTIONS (tools/deploy.spec.ts compares them).
//
// A busy Node process keeps its young generation (two semi-spaces of up to 16 MB, then a
// third for what survives) committed after the load has gone. The services a booking
// calls a few times and that move no large payload (rates, accounting, promo, webhooks)
// run with semi-spaces of 2 MB: about 25 MB less resident each, idle or not, and their CPU
// per booking unchanged within the benchmark's noise. The others keep V8's default: the
// gateway and the search service move V2 answers of up to 16 MB (with 2 MB semi-spaces the
// gateway spent 2.2 times the CPU on a 50-hotel V2 answer, the search service 1.7 times on
// a 2000-hotel one), the booking service list pages of up to 860 KB, and the users service
// answers every backend read and credential lookup (1.5 times its CPU per
// `GET /api/user/{id}` at 1,300 requests a second).
const SMALL_YOUNG_GENERATION = ['--max-semi-space-size=2'];

/** @type {Record<string, string[]>} an app's own Node flags (none: V8's defaults) */
const APP_NODE_FLAGS = {
  promo: SMALL_YOUNG_GENERATION,
  accounting: SMALL_YOUNG_GENERATION,
  webhooks: SMALL_YOUNG_GENERATION,
  rates: SMALL_YOUNG_GENERATION,
};

/** The app a replica's name (`booking@2`) runs; an app's own name as it is. */
const appOf = (/** @type {string} */ replica) => replica.replace(/@\d+$/, '');

/**
 * The Node flags an app (or a replica of it, `booking@2`) runs with.
 * @param {string} name
 * @returns {string[]}
 */
function nodeFlagsOf(name) {
  return APP_NODE_FLAGS[appOf(name)] ?? [];
}

module.exports = { APP_NODE_FLAGS, appOf, nodeFlagsOf };
