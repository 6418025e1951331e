// The worker's composition root for its activities: every integration an activity uses is built
// here, once per worker process, and handed to the activity factories. One worker therefore holds
// one upload pool, one Chromium printer and render queue, one registry, object store and scanner,
// one mailer, one compiled-calendar cache.
import type { S3Client } from '@aws-sdk/client-s3';
import type { Logger } from 'pino';
import type { ActivityDeps } from '../activities/deps';
import type { Db } from '../db/client';
import type { Settings } from '../domain/settings';
import type { SealPdf } from '../domain/signatures/seal-contract';
import { ChromiumPrinter } from '../integrations/chromium/printer';
import { createObjectStore } from '../integrations/docstore/object-store';
import { createScanner } from '../integrations/docstore/scanner';
import { mailerFor } from '../integrations/mail/mailer';
import { measureCompiledCalendars } from '../integrations/metrics/calendars';
import { compiledCalendarCacheFor } from '../services/calendars/compiled-calendars';
import { DocumentRegistry } from '../services/documents/document-registry';
import { UploadSlots } from '../services/documents/upload-slots';
import { RenderQueue } from '../services/forms/render-queue';

/** What the worker connects to before its integrations are built over it. */
export interface WorkerResources {
  db: Db;
  settings: Settings;
  logger: Logger;
  /** Documents: reads stored versions for the durable scan and sets their retention; absent, no object store. */
  s3?: S3Client;
  /** Signatures: draws, signs and timestamps a completed campaign's PDF; absent, seals are FAILED and retried. */
  sealPdf?: SealPdf;
}

/** The activities' dependencies, each integration built once. Builds clients only: nothing connects here. */
export function createWorkerIntegrations(resources: WorkerResources): ActivityDeps {
  const { db, settings, logger } = resources;
  const compiledCalendars = compiledCalendarCacheFor(settings);
  if (compiledCalendars) measureCompiledCalendars('worker', () => compiledCalendars.footprint());
  return {
    db,
    settings,
    logger,
    documents: {
      registry: new DocumentRegistry({ db, settings, logger }),
      store: createObjectStore(settings, resources.s3),
      scanner: createScanner(settings),
      uploadSlots: new UploadSlots(settings['docstore.upload-concurrency']),
    },
    // The worker's own printer and queue (docs/forms.md "Durable intake"); Chromium starts on the first render.
    render: {
      printer: new ChromiumPrinter({ executablePath: settings['render.chromium-path'], timeoutMs: settings['render.timeout-ms'] }),
      queue: new RenderQueue({ concurrency: settings['render.concurrency'], queueSize: settings['render.queue-size'] }),
    },
    mailer: mailerFor(settings),
    sealPdf: resources.sealPdf,
    compiledCalendars,
  };
}
