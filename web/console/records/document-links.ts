// Where the console reads document bytes: one registry and object store per app (the deps object),
// built the way the API's documents tier builds them, so a console download resolves and streams a
// document through the same registry rules as GET /api/documents/{docId}/content.
import type { Context } from 'hono';
import { Readable } from 'node:stream';
import type { AppDeps } from '../../../api/deps';
import { contentDisposition } from '../../../domain/documents/content-disposition';
import { createObjectStore, type DocumentObjectStore } from '../../../integrations/docstore/object-store';
import type { DocumentContent } from '../../../services/documents/document-content';
import { DocumentRegistry } from '../../../services/documents/document-registry';
import type { RegistryClient } from '../../../services/documents/registry-client';
import type { UserCaller } from '../../../services/documents/registry-caller';
import type { ConsoleEnv } from '../env';

export interface ConsoleDocuments {
  registry: RegistryClient;
  store: DocumentObjectStore | undefined;
}

const built = new WeakMap<AppDeps, ConsoleDocuments>();

/** The app's registry and store, built on first use (a console that never downloads builds none). */
export function consoleDocuments(deps: AppDeps): ConsoleDocuments {
  let docs = built.get(deps);
  if (!docs) {
    docs = { registry: new DocumentRegistry(deps), store: createObjectStore(deps.settings, deps.s3) };
    built.set(deps, docs);
  }
  return docs;
}

/** The viewer as the registry knows a user: the console middleware's caller, snapshot included. */
export const registryCaller = (c: Context<ConsoleEnv>): UserCaller => ({ kind: 'user', ...c.get('caller'), requestId: c.get('requestId') });

/** The console's download address of a document (the browser carries no X-Tenant-Id for the API's). */
export const documentHref = (base: string, docId: string) => `${base}/documents/${docId}/content`;

/** The whole document as a download: its type (or `contentType`), length and name; never cached. */
export function downloadResponse(c: Context, { document, body }: DocumentContent, contentType = document.contentType): Response {
  return c.body(Readable.toWeb(body) as unknown as ReadableStream, 200, {
    'Content-Type': contentType,
    ...(document.sizeBytes !== null ? { 'Content-Length': String(document.sizeBytes) } : {}),
    'Content-Disposition': contentDisposition(document.filename),
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  });
}
