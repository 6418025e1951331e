// Storing a document from a byte stream, for every caller: the multipart route, activities (a
// sealed PDF), and the public embed and signing routes. Authorize (no byte is stored before the
// guard answers) → ByteCounter (SHA-256, size, cap) → S3 (the first part streamed when the
// caller vouches for a length) → scan and retain the stored version → finalize. Any failure
// while the bytes go in discards the PENDING row and what reached storage. Nothing is buffered
// whole and nothing touches the disk.
import type { Logger } from 'pino';
import type { Readable } from 'node:stream';
import { ByteCounter, SizeLimitExceeded } from '../../domain/documents/byte-counter';
import { physicalKey } from '../../domain/documents/storage-key';
import { AppError } from '../../domain/errors';
import type { DocumentObjectStore } from '../../integrations/docstore/object-store';
import type { Scanner } from '../../integrations/docstore/scanner';
import type { DocumentView } from './document-view';
import type { Authorization, AuthorizeInput, FinalizeInput, RegistryCaller, RegistryClient } from './registry-client';
import { dropStoredObject } from './remove-document';
import { settleStoredObject } from './settle';
import type { UploadSlots } from './upload-slots';

export interface StoreDocumentDeps {
  registry: RegistryClient;
  store: DocumentObjectStore;
  scanner: Scanner;
  uploadSlots: UploadSlots;
  /** `docstore.max-bytes`, counted on the stream. */
  maxBytes: number;
  now: () => Date;
  log: Logger;
}

/**
 * For a body that is one part of a larger message (a multipart file part): what the message's
 * reader knows that the byte pipeline does not.
 */
export interface BodyEnvelope {
  /** Settles once the rest of the message is read; a rejection discards what was stored and is the answer. */
  complete(): Promise<void>;
  /** After a failed store (other than the cap), the failure in the message's own terms; undefined: storage failed. */
  explain(err: unknown): Promise<Error | undefined>;
}

export interface StoreDocumentInput extends AuthorizeInput {
  body: Readable;
  /**
   * Bytes `body` is sure to have (a request's Content-Length tells): with 5 MiB or more they
   * stream to S3 as the first part, uncollected. 0 or absent: unknown, 5 MiB parts are collected.
   */
  knownMinBytes?: number;
  envelope?: BodyEnvelope;
}

export const documentTooLarge = (maxBytes: number) =>
  new AppError('document-too-large', `The upload exceeds the size cap of ${maxBytes} bytes`);

/** Stores `body` as a new document (or a re-authorized PENDING one) and answers its view: READY, QUARANTINED, or PENDING while a scan retry runs. */
export async function storeDocument(deps: StoreDocumentDeps, caller: RegistryCaller, input: StoreDocumentInput): Promise<DocumentView> {
  const { body, knownMinBytes = 0, envelope, ...fields } = input;
  const auth = await deps.registry.authorize(caller, fields);
  const key = physicalKey(caller.tenantId, auth.storageKey);
  const stored = await storeBytes(deps, caller, auth, key, body, fields.contentType, knownMinBytes, envelope);
  const finalize = await settle(deps, auth, key, stored);
  return deps.registry.finalize(caller, auth.docId, finalize);
}

interface StoredBytes {
  versionId: string;
  sizeBytes: number;
  sha256: string;
}

async function storeBytes(
  deps: StoreDocumentDeps,
  caller: RegistryCaller,
  auth: Authorization,
  key: string,
  body: Readable,
  contentType: string,
  knownMinBytes: number,
  envelope: BodyEnvelope | undefined,
): Promise<StoredBytes> {
  const counter = new ByteCounter({ maxBytes: deps.maxBytes });
  body.on('error', (err) => counter.destroy(err));
  // Past the cap the rest of the body is read and dropped, so a message reader behind it can finish.
  counter.on('error', () => {
    body.unpipe(counter);
    body.resume();
  });
  body.pipe(counter);
  let versionId: string | undefined;
  const release = await deps.uploadSlots.acquire();
  try {
    ({ versionId } = await deps.store.upload(key, counter, contentType, knownMinBytes));
    await envelope?.complete();
  } catch (err) {
    body.resume();
    await discard(deps, caller, auth);
    if (versionId !== undefined) throw err; // the bytes were in: the envelope's own failure
    if (err instanceof SizeLimitExceeded || counter.bytesSeen > deps.maxBytes) throw documentTooLarge(deps.maxBytes);
    const explained = await envelope?.explain(err);
    if (explained) throw explained;
    deps.log.warn({ docId: auth.docId, err: (err as Error).message }, 'upload to storage failed');
    throw new AppError('storage-unavailable', 'Object storage did not accept the upload');
  } finally {
    release();
  }
  return { versionId: versionId!, ...counter.result() };
}

/** Scan and retention of the stored version, as the finalize that records them. */
async function settle(deps: StoreDocumentDeps, auth: Authorization, key: string, stored: StoredBytes): Promise<FinalizeInput> {
  const { versionId, sizeBytes, sha256 } = stored;
  const finalize: FinalizeInput = { version: auth.version, sizeBytes, sha256, storageVersionId: versionId, scan: 'ERROR' };
  try {
    const outcome = await settleStoredObject(deps.store, deps.scanner, key, versionId, auth.retention, deps.now);
    if (outcome.scan === 'INFECTED') Object.assign(finalize, { scan: 'INFECTED', signature: outcome.signature });
    else {
      const r = outcome.retention;
      Object.assign(finalize, { scan: outcome.scan, retention: r ? { mode: r.mode, retainUntil: r.retainUntil.toISOString() } : null });
    }
  } catch (err) {
    // Fail closed: never READY unscanned or unretained; documentScan finishes it later.
    deps.log.warn({ docId: auth.docId, err: (err as Error).message }, 'scan or retention failed; document stays PENDING');
  }
  return finalize;
}

/** After a failed store: soft-delete the PENDING row and drop whatever reached storage (best effort). */
async function discard(deps: StoreDocumentDeps, caller: RegistryCaller, auth: Authorization): Promise<void> {
  try {
    await dropStoredObject(deps.store, caller.tenantId, await deps.registry.remove(caller, auth.docId, auth.version));
  } catch (err) {
    deps.log.warn({ docId: auth.docId, err: (err as Error).message }, 'could not discard a failed upload');
  }
}
