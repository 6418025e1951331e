// Each capability's records in the console (issue 21 §2), read-only, mounted by the console shell
// behind its identity, tenant and CSRF middleware: forms, signatures, documents, phone, calendars.
import { Hono } from 'hono';
import type { ConsoleEnv } from '../env';
import { mountCalendarPages } from './calendars-pages';
import { mountDocumentPages } from './documents-pages';
import { mountFormPages } from './forms-pages';
import { mountPhonePages } from './phone-pages';
import { mountSignaturePages } from './signatures-pages';

/** The record pages under /console/{tenantId}/{forms,signatures,documents,phone,calendars}. */
export function recordRoutes() {
  const app = new Hono<ConsoleEnv>();
  mountFormPages(app);
  mountSignaturePages(app);
  mountDocumentPages(app);
  mountPhonePages(app);
  mountCalendarPages(app);
  return app;
}
