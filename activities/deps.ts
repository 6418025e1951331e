import type { Logger } from 'pino';
import type { Db } from '../db/client';
import type { Settings } from '../domain/settings';
import type { SealPdf } from '../domain/signatures/seal-contract';
import type { PdfPrinter } from '../integrations/chromium/printer';
import type { DocumentObjectStore } from '../integrations/docstore/object-store';
import type { Scanner } from '../integrations/docstore/scanner';
import type { Mailer } from '../integrations/mail/mailer';
import type { DocumentRegistry } from '../services/documents/document-registry';
import type { UploadSlots } from '../services/documents/upload-slots';
import type { RenderQueue } from '../services/forms/render-queue';
import type { CompiledCalendarCache } from '../services/calendars/compiled-calendars';

/** The worker's document integrations, shared by every activity that reads or stores bytes. */
export interface WorkerDocuments {
  registry: DocumentRegistry;
  /** Reads stored versions for the durable scan, stores PDFs; absent on a worker without an S3 client. */
  store: DocumentObjectStore | undefined;
  scanner: Scanner;
  /** The worker's one upload pool: `docstore.upload-concurrency` bounds all of its uploads together. */
  uploadSlots: UploadSlots;
}

/**
 * What activity factories may use; built once per worker process by its composition root
 * (`workers/worker-integrations.ts`). A factory never builds an integration of its own.
 */
export interface ActivityDeps {
  db: Db;
  settings: Settings;
  logger: Logger;
  documents: WorkerDocuments;
  /** Forms: the worker's own Chromium printer (started on the first render) and render queue. */
  render: { printer: PdfPrinter; queue: RenderQueue };
  /** Outbound forms and signatures: the worker's one mailer (links, codes, reminders). */
  mailer: Mailer;
  /** Signatures: draws, signs and timestamps a completed campaign's PDF; absent, seals are FAILED and retried. */
  sealPdf?: SealPdf;
  /** Calendars: the worker's compiled calendars for SLA due dates; absent (setting 0), each due date compiles its calendar. */
  compiledCalendars?: CompiledCalendarCache;
}

/** What the factories that use no integration take. */
export type CoreActivityDeps = Pick<ActivityDeps, 'db' | 'settings' | 'logger'>;
