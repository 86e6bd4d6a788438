// @ts-check
// The faults `npm run chaos` injects, one per round. Each `inject` breaks something
// and resolves once it is repaired the way production would repair it (the
// orchestrator restarts a killed process, the broker comes back, the network
// heals); the round then waits for /health/ready.
const { APPS } = require('./platform');
const { replicaName } = require('../lib/cluster');

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
 * SIGKILL of one supervised process (an app, or one replica of it), restarted after the
 * configured delay; resolves once it runs again.
 * @param {string} name
 * @param {import('./platform').ChaosConfig} config
 * @param {string} note said after the name in the description
 * @returns {Fault}
 */
function killProcess(name, config, note) {
  return {
    name: `kill ${name}`,
    describe: `SIGKILL ${name}${note}, restarted ${config.restartDelayMs / 1000} s later`,
    async inject(platform) {
      const back = respawned(platform.supervisor, name);
      await platform.supervisor.kill(name, 'SIGKILL', { restartDelayMs: config.restartDelayMs });
      await back;
    },
  };
}

/**
 * Every fault kind, in the order the rounds take them; `config` gives the outage lengths.
 * @param {import('./platform').ChaosConfig} config
 * @param {{ cluster: boolean }} layout
 * @returns {Fault[]}
 */
function faultKinds(config, { cluster }) {
  if (cluster) return clusterFaultKinds(config);
  return [
    ...APPS.map((app) => killProcess(app, config, '')),
    {
      name: 'restart nats',
      describe: `SIGKILL nats-server, started again on the same port ${config.natsDownMs / 1000} s later`,
      async inject(platform) {
        const [nats] = platform.natsNodes;
        await nats.kill('SIGKILL');
        await sleep(config.natsDownMs);
        await nats.start();
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
 * The faults of the cluster layout: a NATS node (the one leading the booking events, then
 * another), and one replica of each app, the gateways' included; the other replica and nodes
 * carry on.
 * @param {import('./platform').ChaosConfig} config
 * @returns {Fault[]}
 */
function clusterFaultKinds(config) {
  /**
   * @param {Platform} platform
   * @param {boolean} leader the node leading BOOKING_EVENTS, or another
   */
  const nodeOf = async (platform, leader) => {
    const name = await platform.stream.leader();
    if (!name) throw new Error('the BOOKING_EVENTS stream has no leader before the fault');
    const leading = Number(/(\d+)$/.exec(name)?.[1]) - 1;
    return leader ? leading : (leading + 1) % platform.natsNodes.length;
  };
  /** @param {boolean} leader */
  const killNode = (leader) => ({
    name: leader ? 'kill nats leader' : 'kill nats node',
    describe: `SIGKILL the NATS node ${leader ? 'leading' : 'not leading'} the booking events, started again ${config.clusterNatsDownMs / 1000} s later`,
    /** @param {Platform} platform */
    async inject(platform) {
      const node = platform.natsNodes[await nodeOf(platform, leader)];
      await node.kill('SIGKILL');
      await sleep(config.clusterNatsDownMs);
      await node.start();
    },
  });
  return [
    killNode(true),
    killNode(false),
    ...APPS.map((app) => killProcess(replicaName(app, 1), config, ' (the other replica carries on)')),
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
