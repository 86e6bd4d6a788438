// The faults `npm run chaos` injects, one per round. Each `inject` breaks something
// and resolves once it is repaired the way production would repair it (the
// orchestrator restarts a killed process, the broker comes back, the network
// heals); the round then waits for /health/ready.
const { APPS } = require('./platform');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves when the supervisor has started the app again. */
function respawned(supervisor, name) {
  return new Promise((resolve) => {
    const onSpawn = (event) => {
      if (event.name !== name) return;
      supervisor.off('spawn', onSpawn);
      resolve();
    };
    supervisor.on('spawn', onSpawn);
  });
}

/** Every fault kind, in the order the rounds take them; `config` gives the outage lengths. */
function faultKinds(config) {
  return [
    ...APPS.map((app) => ({
      name: `kill ${app}`,
      describe: `SIGKILL ${app}, restarted ${config.restartDelayMs / 1000} s later`,
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
  ];
}

module.exports = { faultKinds };
