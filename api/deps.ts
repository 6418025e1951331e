import type { S3Client } from '@aws-sdk/client-s3';
import type { Logger } from 'pino';
import type { AccessCache } from './access-cache';
import type { Db } from '../db/client';
import type { Settings } from '../domain/settings';
import type { PhoneToolRegistry } from './phone/tools';
import type { PdfPrinter } from '../integrations/chromium/printer';
import type { JwtVerifier } from '../integrations/identity/jwt-verifier';
import type { Mailer } from '../integrations/mail/mailer';
import type { CompiledCalendarCache } from '../services/calendars/compiled-calendars';

/** A named readiness probe: resolves when the part answers, rejects (or times out) otherwise. */
export type ReadinessCheck = () => Promise<void>;

/** Everything the HTTP app needs, passed in so tests swap parts (DESIGN: no env reads here). */
export interface AppDeps {
  db: Db;
  settings: Settings;
  logger: Logger;
  s3?: S3Client;
  /** The node's one mailer (outbound form links, recipient and signer codes, signing links). */
  mailer: Mailer;
  readiness: Record<string, ReadinessCheck>;
  clock?: () => Date;
  /** Caller snapshots per node; absent means every request asks PostgreSQL. */
  accessCache?: AccessCache;
  /** The node's compiled calendars (SLA, availability, is-open); absent: every request loads and compiles its calendar. */
  compiledCalendars?: CompiledCalendarCache;
  /** Handlers of the provider's `tool-calls` webhook by tool name; absent: every tool is "not configured". */
  phoneTools?: PhoneToolRegistry;
  /** The node's headless Chromium (submission PDFs); absent: the app builds a lazy one from settings, never closed. */
  pdfPrinter?: PdfPrinter;
  /** `auth.mode=jwt`: the node's assertion verifier and its key set cache; absent: built from settings on first use. */
  jwtVerifier?: JwtVerifier;
}
