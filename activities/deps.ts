import type { S3Client } from '@aws-sdk/client-s3';
import type { Logger } from 'pino';
import type { Db } from '../db/client';
import type { Settings } from '../domain/settings';

/** What activity factories may use; passed in by the worker's composition root. */
export interface ActivityDeps {
  db: Db;
  settings: Settings;
  logger: Logger;
  /** Documents: reads stored versions for the durable scan and sets their retention. */
  s3?: S3Client;
}
