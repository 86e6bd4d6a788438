import 'reflect-metadata';
import { JsonLogger, closeOnSignal, exitOnStartFailure, loadEnvOrExit } from '@hotel/platform';
import { SimulatorEnv } from './simulator.env';
import { startSimulator } from './start-simulator';

const APP = 'vendor-simulator';
const env = loadEnvOrExit(APP, SimulatorEnv);
startSimulator(env).then((running) => {
  const logger = new JsonLogger(APP, env.LOG_LEVEL);
  logger.log({ msg: 'simulated vendors listening', url: running.url, vendors: ['atlas', 'borealis', 'cobalt'].map((vendor) => `${running.url}/${vendor}`) });
  closeOnSignal(logger, () => running.close());
}, exitOnStartFailure(APP));
