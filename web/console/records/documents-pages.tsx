// Documents, read-only: a case file (processRef), a task's files (taskId) or an owner's documents
// (capability + owner id), listed by the registry exactly as GET /api/documents lists them (only
// the capabilities the viewer may read; keyset-paged), and downloaded through the registry's
// resolve and the object store, as GET /api/documents/{docId}/content streams them.
import type { Hono } from 'hono';
import { text } from '../../../api/vocabulary';
import type { ListSelector } from '../../../db/queries/documents';
import { DOCUMENT_CAPABILITIES } from '../../../domain/documents/document-fields';
import { AppError } from '../../../domain/errors';
import { openDocumentContent } from '../../../services/documents/document-content';
import type { ConsoleEnv } from '../env';
import { consolePage } from '../shell';
import { consoleDocuments, documentHref, downloadResponse, registryCaller } from './document-links';
import { consoleBase, idParam, pageQuery, recordPage, refusalForAny, type ConsoleContext } from './record-access';
import { Empty, formatBytes, OlderLink, RecordTable, When, withQuery } from './record-parts';

const SECTION = 'documents';
const reference = text({ max: 200, trim: false });
const OPAQUE_ID = /^[\x21-\x7E]{1,200}$/;

interface Selection {
  processRef?: string;
  taskId?: string;
  capability?: string;
  ownerEntityId?: string;
}

/** The form's fields as the API's selector: exactly one of a case, a task, an owner (or none yet). */
function selectionOf(c: ConsoleContext): { fields: Selection; selector: ListSelector | null } {
  const fields: Selection = {
    processRef: c.req.query('processRef') || undefined,
    taskId: c.req.query('taskId') || undefined,
    capability: c.req.query('capability') || undefined,
    ownerEntityId: c.req.query('ownerEntityId') || undefined,
  };
  const bad = (detail: string) => new AppError('validation-failed', detail);
  if (fields.processRef !== undefined && !reference.safeParse(fields.processRef).success) throw bad('The case reference must be 1 to 200 characters');
  if (fields.taskId !== undefined && !OPAQUE_ID.test(fields.taskId)) throw bad('The task id must be 1 to 200 printable characters without spaces');
  if (fields.ownerEntityId !== undefined && !OPAQUE_ID.test(fields.ownerEntityId)) throw bad('The owner id must be 1 to 200 printable characters without spaces');
  if (fields.capability !== undefined && !(DOCUMENT_CAPABILITIES as readonly string[]).includes(fields.capability)) {
    throw bad(`The capability must be one of ${DOCUMENT_CAPABILITIES.join(', ')}`);
  }
  const chosen = [fields.processRef, fields.taskId, fields.ownerEntityId].filter((v) => v !== undefined).length;
  if (chosen === 0) return { fields, selector: null };
  if (chosen > 1) throw bad('Give one of a case reference, a task id or an owner id');
  if (fields.processRef !== undefined) return { fields, selector: { processRef: fields.processRef } };
  if (fields.taskId !== undefined) return { fields, selector: { taskId: fields.taskId } };
  if (fields.capability === undefined) throw bad("An owner id goes with the owner's capability");
  return { fields, selector: { capability: fields.capability, ownerEntityId: fields.ownerEntityId! } };
}

const SelectionForm = ({ action, fields }: { action: string; fields: Selection }) => (
  <form method="get" action={action} class="stack" role="search" aria-label="Find documents">
    <p>Documents are filed by case. Give a case reference, a task id, or a capability with its owner id (such as a form instance id).</p>
    <div class="field">
      <label for="doc-process-ref">Case reference (processRef)</label>
      <input id="doc-process-ref" name="processRef" type="text" maxlength={200} value={fields.processRef ?? ''} />
    </div>
    <div class="field">
      <label for="doc-task-id">Task id</label>
      <input id="doc-task-id" name="taskId" type="text" maxlength={200} value={fields.taskId ?? ''} />
    </div>
    <div class="field">
      <label for="doc-capability">Owner's capability</label>
      <select id="doc-capability" name="capability">
        <option value="">—</option>
        {DOCUMENT_CAPABILITIES.map((code) => (
          <option value={code} selected={fields.capability === code}>
            {code}
          </option>
        ))}
      </select>
    </div>
    <div class="field">
      <label for="doc-owner">Owner id</label>
      <input id="doc-owner" name="ownerEntityId" type="text" maxlength={200} value={fields.ownerEntityId ?? ''} />
    </div>
    <button type="submit">Show documents</button>
  </form>
);

async function documentsPage(c: ConsoleContext) {
  const refused = refusalForAny(c, SECTION, DOCUMENT_CAPABILITIES);
  if (refused) return refused;
  const base = consoleBase(c);
  const { fields, selector } = selectionOf(c);
  const { cursor, limit } = pageQuery(c);
  const page = selector ? await consoleDocuments(c.get('deps')).registry.list(registryCaller(c), { selector, limit, cursor }) : null;
  const next = page?.nextCursor ? withQuery(`${base}/documents`, { ...fields, cursor: page.nextCursor, limit: c.req.query('limit') }) : null;
  return consolePage(c, {
    title: 'Documents',
    section: SECTION,
    body: (
      <>
        <SelectionForm action={`${base}/documents`} fields={fields} />
        {!page ? (
          <Empty>No case chosen yet: give a case reference, a task id or an owner above to list its documents.</Empty>
        ) : page.items.length === 0 ? (
          <Empty>{cursor ? 'No more documents in this selection.' : 'There are no documents you may read in this selection.'}</Empty>
        ) : (
          <RecordTable
            label="Documents"
            head={['File', 'Kind', 'Capability', 'State', 'Size', 'Created']}
            rows={page.items.map((d) => [
              d.status === 'READY' ? <a href={documentHref(base, d.id)}>{d.filename}</a> : d.filename,
              d.kind,
              d.capability,
              d.status,
              formatBytes(d.sizeBytes),
              <When at={d.createdAt} />,
            ])}
          />
        )}
        <OlderLink href={next} label="More" />
      </>
    ),
  });
}

/** The bytes, whole, as an attachment: resolve (guard, tenant, READY) then stream the pinned version. */
async function downloadDocument(c: ConsoleContext) {
  const docs = consoleDocuments(c.get('deps'));
  return downloadResponse(c, await openDocumentContent(docs.registry, docs.store, registryCaller(c), idParam(c)));
}

export function mountDocumentPages(app: Hono<ConsoleEnv>) {
  app.get('/console/:tenantId/documents', recordPage(SECTION, documentsPage));
  app.get('/console/:tenantId/documents/:id/content', recordPage(SECTION, downloadDocument, 'The document'));
}
