// @ts-check
// Stopping what a start command (npm start, npm run cluster) started: the apps first (each
// given time to finish what it holds), then what they used, in the reverse order it began.
const { log } = require('./workspace');

/**
 * A once-only shutdown: `stop(code)` stops the supervisor's apps, runs the cleanups newest
 * first (one failing does not stop the others) and exits with `code`.
 * @param {{ supervisor: () => { stopAll(timeoutMs: number): Promise<unknown> } | null }} options
 */
function createShutdown({ supervisor }) {
  /** What to undo at shutdown, in reverse order. @type {(() => unknown)[]} */
  const cleanups = [];
  let stopping = false;
  return {
    cleanups,
    isStopping: () => stopping,
    /** @param {number} code */
    async stop(code) {
      if (stopping) return;
      stopping = true;
      log('stopping...');
      await supervisor()?.stopAll(10_000);
      for (const cleanup of cleanups.reverse()) {
        try {
          await cleanup();
        } catch (error) {
          log(`cleanup failed: ${error instanceof Error ? error.message : error}`);
        }
      }
      log('stopped.');
      process.exit(code);
    },
  };
}

module.exports = { createShutdown };
