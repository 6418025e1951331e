// Putting an uploaded source PDF into the draft: a lifecycle step like a save (a fresh lock of
// another user refuses it), audited as `document_uploaded`. The rest of the stored draft is kept
// as it was (repair stays a read-time view); a draft that is not an object becomes the empty
// schema with the document.
import { assertMayEdit, type Editor } from '../definitions/edit-lock';
import type { DefinitionFacts, Step } from '../definitions/lifecycle';
import { emptySigningSchema, type SourceDocument } from './signing-schema';

export interface UploadedDocument {
  key: string;
  name: string;
  pageCount: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function draftWithDocument(draft: unknown, doc: UploadedDocument): Record<string, unknown> {
  const document: SourceDocument = { key: doc.key, name: doc.name, pageCount: doc.pageCount };
  return { ...(isObject(draft) ? draft : emptySigningSchema()), document };
}

export function decideSourceDocument(d: DefinitionFacts & { draftSchema: unknown }, editor: Editor, doc: UploadedDocument): Step {
  assertMayEdit(d, editor);
  return {
    changes: { draftSchema: draftWithDocument(d.draftSchema, doc) },
    audit: { action: 'document_uploaded', detail: { key: doc.key, name: doc.name, pageCount: doc.pageCount } },
  };
}
