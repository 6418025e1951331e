import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import pino, { type DestinationStream, type Level } from 'pino';
import { createLogger } from '../../workers/logger';

/**
 * Where the test apps of a run write their logs (one file per worker process), so that after the
 * suite a check (test/log-scan) can look for the personal data the fixtures sent. Cleared by the
 * integration global setup at the start of every run.
 */
export const SUITE_LOG_DIR = fileURLToPath(new URL('../../.data/test-logs', import.meta.url));

let destination: DestinationStream | undefined;

/** This process's suite log file, opened once. */
export function suiteLogDestination(): DestinationStream {
  destination ??= pino.destination({ dest: join(SUITE_LOG_DIR, `${process.pid}.ndjson`), mkdir: true, sync: true });
  return destination;
}

/** The production logger (workers/logger.ts) writing to the suite log. */
export const suiteLogger = (level: Level = 'info') => createLogger({ 'log.level': level }, 'test', suiteLogDestination());
