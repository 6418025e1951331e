import type { S3Client } from '@aws-sdk/client-s3';
import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import type { Db } from '../db/client';
import type { Settings } from '../domain/settings';
import { createCalendarActivities } from './calendars';
import { createDocumentActivities } from './documents';
import { createOutboxActivities } from './outbox';
import { createPhoneActivities } from './phone';

/** What activity factories may use; passed in by the worker's composition root. */
export interface ActivityDeps {
  db: Db;
  settings: Settings;
  logger: Logger;
  /** Documents: reads stored versions for the durable scan and sets their retention. */
  s3?: S3Client;
  /** Documents: signals the owning workflow when a task-scoped document settles READY. */
  temporal?: Client;
}

/** Every activity the platform worker registers, merged from per-capability factories. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createOutboxActivities(deps),
    ...createDocumentActivities(deps),
    ...createPhoneActivities(deps),
    ...createCalendarActivities(deps),
  };
}

export type PlatformActivities = ReturnType<typeof createActivities>;
