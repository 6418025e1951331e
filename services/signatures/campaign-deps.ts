// What the campaign operations are given: the database, the settings (the master key that seals
// personal data, the public base URL, the ceremony's timings), the process's mailer (signing links,
// reminders, codes), an optional clock and logger; and, for the steps that read or store documents,
// the documents registry and store.
import type { Logger } from 'pino';
import type { Db } from '../../db/client';
import type { Settings } from '../../domain/settings';
import type { DocumentObjectStore } from '../../integrations/docstore/object-store';
import type { Mailer } from '../../integrations/mail/mailer';
import type { RegistryClient } from '../documents/registry-client';
import type { StoreDocumentDeps } from '../documents/store-document';

export interface CampaignDeps {
  db: Db;
  settings: Settings;
  mailer: Mailer;
  clock?: () => Date;
  logger?: Logger;
}

export interface SigningDocs {
  registry: RegistryClient;
  store: DocumentObjectStore | undefined;
  storeDeps: () => StoreDocumentDeps;
}
