// The source PDF of a signing definition. Checked whole (source-pdf.ts) before anything is
// stored, then stored through the documents registry as a SIGNATURE_ATTACHMENT of SIGNATURES,
// owned by the definition, under the processRef `signature-definition-<id>`. SIGNATURES documents
// need a recorded process for their processRef (the registry's context rule); a definition's
// authoring is that case, so the upload records it (idempotent) with the definition id as its
// instance. The key answered is the document id: opaque, never a storage key.
import { Readable } from 'node:stream';
import type { signatureDefinitions } from '../../db/schema/signatures';
import { assertMayEdit } from '../../domain/definitions/edit-lock';
import { AppError, notFound } from '../../domain/errors';
import { decideSourceDocument, type UploadedDocument } from '../../domain/signatures/source-document';
import type { Actor, DefinitionDeps, RowOf } from '../definitions/capability';
import { getDefinition } from '../definitions/read-definitions';
import { editorOf, runStep } from '../definitions/run-step';
import type { UserCaller } from '../documents/registry-caller';
import type { RegistryClient } from '../documents/registry-client';
import { storeDocument, type StoreDocumentDeps } from '../documents/store-document';
import { signatureDefinitionCapability as cap } from './signature-definitions';
import { inspectSourcePdf } from './source-pdf';

const sourceProcessRef = (definitionId: string) => `signature-definition-${definitionId}`;

interface SourceFile {
  bytes: Buffer;
  filename: string;
}

export async function uploadSourceDocument(
  deps: { definitions: DefinitionDeps; store: () => StoreDocumentDeps },
  caller: UserCaller,
  actor: Actor,
  id: string,
  /** Reads the request's file; called once the definition is known to exist and to be editable by the caller. */
  readFile: () => Promise<SourceFile>,
): Promise<{ uploaded: UploadedDocument; definition: RowOf<typeof signatureDefinitions> }> {
  // Refused before any byte is stored: an unknown definition, another user's fresh lock, a bad PDF.
  assertMayEdit(await getDefinition(deps.definitions, cap, actor, id), editorOf(deps.definitions, cap, actor));
  const file = await readFile();
  const { pageCount } = await inspectSourcePdf(file.bytes);
  const processRef = sourceProcessRef(id);
  const store = deps.store();
  await store.registry.processStarted(caller, { processRef, processInstanceId: id });
  const doc = await storeDocument(store, caller, {
    processRef,
    kind: 'SIGNATURE_ATTACHMENT',
    capability: 'SIGNATURES',
    ownerEntityId: id,
    filename: file.filename,
    contentType: 'application/pdf',
    body: Readable.from([file.bytes]),
    knownMinBytes: file.bytes.length,
  });
  if (doc.status === 'QUARANTINED') throw new AppError('document-quarantined', 'The malware scan quarantined the uploaded PDF');
  const uploaded = { key: doc.id, name: file.filename, pageCount };
  const definition = await runStep(deps.definitions, cap, actor, id, (row, _tx, editor) => decideSourceDocument(row, editor, uploaded));
  return { uploaded, definition };
}

/** The document behind `key` when it is a source PDF of this definition (of this tenant); else 404. */
export async function sourceDocumentOf(deps: DefinitionDeps, registry: RegistryClient, caller: UserCaller, actor: Actor, id: string, key: string) {
  await getDefinition(deps, cap, actor, id);
  const missing = () => notFound('Source document', 'source-document-not-found');
  let doc;
  try {
    doc = await registry.get(caller, key);
  } catch (err) {
    if (err instanceof AppError && err.status === 404) throw missing();
    throw err;
  }
  if (doc.capability !== 'SIGNATURES' || doc.kind !== 'SIGNATURE_ATTACHMENT' || doc.processRef !== sourceProcessRef(id)) throw missing();
  return doc;
}
