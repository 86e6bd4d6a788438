// @ts-check
// The faults `npm run chaos` injects, one per round. Each `inject` breaks something
// and resolves once it is repaired the way production would repair it (the
// orchestrator restarts a killed process, the broker comes back, the network
// heals); the round then waits for /health/ready.
const { APPS } = require('./platform');

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @typedef {import('./platform').Platform} Platform */

/**
 * One fault: `inject` breaks it and resolves once it is repaired.
 * @typedef {{ name: string, describe: string, inject: (platform: Platform) => Promise<void> }} Fault
 */

/**
 * Resolves when the supervisor has started the app again.
 * @param {import('../lib/supervisor').Supervisor} supervisor
 * @param {string} name
 * @returns {Promise<void>}
 */
function respawned(supervisor, name) {
  return new Promise((resolve) => {
    /** @param {{ name: string }} event the supervisor's 'spawn' */
    const onSpawn = (event) => {
      if (event.name !== name) return;
      supervisor.off('spawn', onSpawn);
      resolve();
    };
    supervisor.on('spawn', onSpawn);
  });
}

/**
 * Every fault kind, in the order the rounds take them; `config` gives the outage lengths.
 * @param {import('./platform').ChaosConfig} config
 * @returns {Fault[]}
 */
function faultKinds(config) {
  return [
    ...APPS.map((app) => ({
      name: `kill ${app}`,
      describe: `SIGKILL ${app}, restarted ${config.restartDelayMs / 1000} s later`,
      /** @param {Platform} platform */
      async inject(platform) {
        const back = respawned(platform.supervisor, app);
        await platform.supervisor.kill(app, 'SIGKILL', { restartDelayMs: config.restartDelayMs });
        await back;
      },
    })),
    {
      name: 'restart nats',
      describe: `SIGKILL nats-server, started again on the same port ${config.natsDownMs / 1000} s later`,
      async inject(platform) {
        await platform.nats.kill('SIGKILL');
        await sleep(config.natsDownMs);
        await platform.nats.start();
      },
    },
    {
      name: 'cut postgres',
      describe: `every database connection of the apps dropped, new ones refused for ${config.postgresCutMs / 1000} s`,
      inject: (platform) => platform.proxy.cut(config.postgresCutMs),
    },
    {
      name: 'vendor faults',
      describe:
        `for ${config.vendorFaultMs / 1000} s every vendor answers 0.8 s late, one request in four with 500, ` +
        'and one in four is carried out (a booking made, a cancellation done) with its answer lost',
      async inject(platform) {
        const knobs = { latencyMs: 800, serverErrorShare: 0.25, loseAnswerShare: 0.25 };
        await setVendorFaults(platform.simulatorUrl, { atlas: knobs, borealis: knobs, cobalt: knobs });
        await sleep(config.vendorFaultMs);
        await setVendorFaults(platform.simulatorUrl, { atlas: {}, borealis: {}, cobalt: {} });
      },
    },
  ];
}

/**
 * The vendor simulator's fault knobs, set at run time (its admin route, loopback only).
 * @param {string} simulatorUrl
 * @param {Record<string, { latencyMs?: number, serverErrorShare?: number, loseAnswerShare?: number }>} faults by vendor
 */
async function setVendorFaults(simulatorUrl, faults) {
  const answer = await fetch(`${simulatorUrl}/_simulator/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(faults) });
  if (answer.status !== 200) throw new Error(`the vendor simulator refused its fault knobs: ${answer.status} ${await answer.text()}`);
}

module.exports = { faultKinds };
