// The recipient's file fields (docs/forms.md "Recipient attachments"): a verified recipient uploads,
// lists and removes the attachments of their open instance with the access token, through the same
// registry principal as an embed session (`embed`: FORM_ATTACHMENT documents of one processRef).
// The documents are stored under the instance's case processRef and owned by the instance from the
// start (owner_entity_id), so two instances a sender filed under one case never see each other's
// files, and submit accepts only file ids the instance owns.
import type { DbOrTx } from '../../db/client';
import { releaseAttachmentSlot, takeAttachmentSlot } from '../../db/queries/embed-sessions';
import type { FormInstanceRow } from '../../db/queries/form-instances';
import { AppError, conflict } from '../../domain/errors';
import { TYPE_TRAITS } from '../../domain/forms/field-types';
import type { FormSchema } from '../../domain/forms/form-schema';
import { caseProcessRefOf, processBusinessKeyOf } from '../../domain/forms/intake-process';
import { isEditable } from '../../domain/forms/instance-rules';
import type { DocumentView } from '../documents/document-view';
import { listInstanceAttachments } from '../documents/form-instance-documents';
import type { EmbedCaller } from '../documents/registry-caller';
import type { RegistryClient } from '../documents/registry-client';
import { sessionDocument } from './embed-attachments';
import type { OutboundDeps } from './outbound-send';
import { authorizedInstance } from './recipient-access';

export interface RecipientSession {
  caller: EmbedCaller;
  instance: FormInstanceRow;
}

/** The attachment count is kept per instance (its business key), whatever case processRef the documents carry. */
const slotKey = (row: FormInstanceRow) => ({ tenantId: row.tenantId, processRef: processBusinessKeyOf(row.id) });

const stateConflict = (row: FormInstanceRow) =>
  new AppError('instance-state-conflict', `A ${row.state} form takes no more files`, { state: row.state });

/**
 * The recipient's principal for the registry: the access token opens the instance (the one 404
 * otherwise); reading works in every readable state, changing only while the form is open.
 */
export async function openRecipientSession(
  deps: OutboundDeps,
  p: { token: string; accessToken: string | undefined; requestId?: string; change: boolean },
): Promise<RecipientSession> {
  const instance = await authorizedInstance(deps, p.token, p.accessToken);
  if (p.change && !isEditable(instance.state)) throw stateConflict(instance);
  const caller: EmbedCaller = {
    kind: 'embed',
    tenantId: instance.tenantId,
    capability: 'FORMS',
    processRef: caseProcessRefOf(instance.id, instance.context),
    requestId: p.requestId,
  };
  return { caller, instance };
}

/** One of the instance's `cap` slots, taken atomically before any byte is stored (parallel uploads cannot pass the cap). */
export async function reserveRecipientAttachment(db: DbOrTx, s: RecipientSession, cap: number): Promise<void> {
  const taken = await takeAttachmentSlot(db, { ...slotKey(s.instance), definitionId: s.instance.definitionId, cap });
  if (!taken) throw conflict('embed-attachment-cap-reached', `This form already holds ${cap} attachments, the most it may hold`);
}

/** Gives a slot back: a failed upload, or a removed file. */
export async function releaseRecipientAttachment(db: DbOrTx, s: RecipientSession): Promise<void> {
  await releaseAttachmentSlot(db, slotKey(s.instance));
}

/** A document of this instance; any other (another instance's under the same case, another session's) is missing. */
export async function recipientDocument(registry: RegistryClient, s: RecipientSession, docId: string): Promise<DocumentView> {
  const doc = await sessionDocument(registry, s.caller, docId);
  if (doc.ownerEntityId !== s.instance.id) throw new AppError('document-not-found', 'Document was not found');
  return doc;
}

/** The instance's attachments (not deleted), oldest first. */
export async function listRecipientDocuments(registry: RegistryClient, s: RecipientSession, limit: number): Promise<DocumentView[]> {
  const page = await registry.list(s.caller, { selector: { processRef: s.caller.processRef }, limit: limit * 4 });
  return page.items.filter((d) => d.ownerEntityId === s.instance.id && d.status !== 'DELETED').slice(0, limit);
}

/**
 * Submit's check of the file fields: every id must be a READY attachment the instance owns
 * (paths `data.<key>.<i>`), so a recipient cannot hand in another form's document.
 */
export async function foreignFiles(db: DbOrTx, row: FormInstanceRow, schema: FormSchema, data: Record<string, unknown>) {
  const fileKeys = schema.fields.filter((f) => TYPE_TRAITS[f.type].value === 'files').map((f) => f.key);
  const given = fileKeys.flatMap((key) => (Array.isArray(data[key]) ? (data[key] as unknown[]).map((id, i) => ({ key, i, id })) : []));
  if (!given.length) return [];
  const owned = await listInstanceAttachments(db, { tenantId: row.tenantId, processRef: caseProcessRefOf(row.id, row.context), instanceId: row.id });
  const ready = new Set(owned.map((a) => a.docId));
  return given
    .filter((g) => !ready.has(String(g.id)))
    .map((g) => ({ path: `data.${g.key}.${g.i}`, message: 'is not a file uploaded to this form, or it is still being checked' }));
}
