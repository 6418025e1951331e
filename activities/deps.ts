import type { S3Client } from '@aws-sdk/client-s3';
import type { Logger } from 'pino';
import type { Db } from '../db/client';
import type { Settings } from '../domain/settings';
import type { SealPdf } from '../domain/signatures/seal-contract';

/** What activity factories may use; passed in by the worker's composition root. */
export interface ActivityDeps {
  db: Db;
  settings: Settings;
  logger: Logger;
  /** Documents: reads stored versions for the durable scan and sets their retention. */
  s3?: S3Client;
  /** Signatures: draws, signs and timestamps a completed campaign's PDF; absent, seals are FAILED and retried. */
  sealPdf?: SealPdf;
}
