import type { Logger } from 'pino';

// A terminal's Ctrl-C reaches every process of the group, and npm forwards it once more: the
// copies that arrive together are one request. A later signal means "stop now".
const REPEAT_WINDOW_MS = 3_000;

/** Runs `stop` once on SIGINT/SIGTERM, then exits; a later second signal exits at once. */
export function onShutdown(logger: Logger, stop: () => Promise<void>) {
  let stopping = false;
  let firstAt = 0;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping && Date.now() - firstAt < REPEAT_WINDOW_MS) return;
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    firstAt = Date.now();
    logger.info({ signal }, 'shutting down');
    stop()
      .then(() => process.exit(0))
      .catch((err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}
