import type { Logger } from 'pino';
import type { Db } from '../db/client';
import type { Settings } from '../workers/settings';
import { createOutboxActivities } from './outbox';

/** What activity factories may use; passed in by the worker's composition root. */
export interface ActivityDeps {
  db: Db;
  settings: Settings;
  logger: Logger;
}

/** Every activity the platform worker registers, merged from per-capability factories. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createOutboxActivities(deps),
  };
}

export type PlatformActivities = ReturnType<typeof createActivities>;
