// Embed attachments (spec Documents rule 5): an anonymous respondent, holding only the embed token,
// uploads files under a processRef its browser minted, lists and deletes them before submitting,
// and binds them to the instance the submit created (/link). The registry's `embed` principal
// (caller-rules.ts) confines it to FORM_ATTACHMENT rows of that processRef; this module adds the
// session rules: the processRef's shape, the per-session cap and the one-time link, on one
// `embed_sessions` row per session.
import type { Db, DbOrTx } from '../../db/client';
import {
  findEmbedSession,
  insertEmbedSessionIfAbsent,
  linkEmbedSession,
  releaseAttachmentSlot,
  takeAttachmentSlot,
} from '../../db/queries/embed-sessions';
import { findFormInstanceOrigin } from '../../db/queries/form-instances';
import { AppError, badRequest, conflict } from '../../domain/errors';
import type { Settings } from '../../domain/settings';
import type { DocumentView } from '../documents/document-view';
import { linkProcessAttachments } from '../documents/form-instance-documents';
import type { EmbedCaller } from '../documents/registry-caller';
import type { RegistryClient } from '../documents/registry-client';
import { resolveEmbeddedForm, type EmbeddedForm } from './embed-tokens';

/** `emb_` and at least 22 base64url characters: 132 random bits from the browser, never guessable. */
export const EMBED_SESSION = /^emb_[A-Za-z0-9_-]{22,64}$/;
export const EMBED_SESSION_MAX_LENGTH = 'emb_'.length + 64;

export interface EmbedSession {
  caller: EmbedCaller;
  form: EmbeddedForm;
}

/** The session's principal: the token names the tenant and form (404 as every public embed route), the processRef is the browser's. */
export async function openEmbedSession(
  deps: { db: Db; settings: Settings },
  token: string,
  processRef: string | undefined,
  requestId?: string,
): Promise<EmbedSession> {
  const form = await resolveEmbeddedForm(deps, token);
  if (processRef === undefined || !EMBED_SESSION.test(processRef)) {
    throw badRequest('embed-session-invalid', 'The embed session processRef must be `emb_` followed by 22-64 base64url characters');
  }
  const caller: EmbedCaller = { kind: 'embed', tenantId: form.definition.tenantId, capability: 'FORMS', processRef, requestId };
  return { caller, form };
}

const alreadyLinked = () => conflict('embed-attachments-linked', "This session's attachments are already linked to its submission");

/**
 * Takes one of the session's attachment slots in one atomic upsert (the row is created on the
 * first upload), or says why not: the session is linked, belongs to another form, or is full.
 * Parallel uploads at a cap of C get at most C slots whatever the node.
 */
export async function reserveAttachment(db: Db, session: EmbedSession, cap: number): Promise<void> {
  const { caller, form } = session;
  const taken = await takeAttachmentSlot(db, { tenantId: caller.tenantId, processRef: caller.processRef, definitionId: form.definition.id, cap });
  if (taken) return;
  await assertSessionOpen(db, session);
  throw conflict('embed-attachment-cap-reached', `This session already holds ${cap} attachments, the most it may hold`);
}

/** Gives a slot back: an upload that failed, or an attachment deleted before submit. */
export async function releaseAttachment(db: Db, caller: EmbedCaller): Promise<void> {
  await releaseAttachmentSlot(db, { tenantId: caller.tenantId, processRef: caller.processRef });
}

/** Refused once linked (the instance owns the files then); a processRef of another form is not this session. */
export async function assertSessionOpen(db: DbOrTx, session: EmbedSession): Promise<void> {
  const row = await findEmbedSession(db, { tenantId: session.caller.tenantId, processRef: session.caller.processRef });
  if (!row) return;
  if (row.definitionId !== session.form.definition.id) {
    throw badRequest('embed-session-invalid', 'This processRef belongs to another form; mint a new one');
  }
  if (row.linkedInstanceId !== null) throw alreadyLinked();
}

/** A document outside the session is reported as missing: the public routes never say whose it is. */
export async function sessionDocument(registry: RegistryClient, caller: EmbedCaller, docId: string): Promise<DocumentView> {
  try {
    return await registry.get(caller, docId);
  } catch (err) {
    if (err instanceof AppError && err.code === 'document-out-of-scope') throw new AppError('document-not-found', 'Document was not found');
    throw err;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Binds the session's READY attachments to the instance its submit created: `owner_entity_id` =
 * the instance id (what the intake step mirrors). Only an EMBED instance of this token's form whose
 * context carries this processRef qualifies (anything else is the same 404), and only once.
 */
export async function linkSession(db: Db, session: EmbedSession, instanceId: string): Promise<{ instanceId: string; documentIds: string[] }> {
  const { caller, form } = session;
  const missing = () => new AppError('form-instance-not-found', 'Form instance was not found');
  if (!UUID.test(instanceId)) throw missing();
  return db.transaction(async (tx) => {
    const instance = await findFormInstanceOrigin(tx, { tenantId: caller.tenantId, id: instanceId });
    const context = (instance?.context ?? {}) as Record<string, unknown>;
    if (!instance || instance.definitionId !== form.definition.id || instance.origin !== 'EMBED' || context.processRef !== caller.processRef) {
      throw missing();
    }
    // The one-time switch: the session row (created here for a session without uploads) takes the instance once.
    const key = { tenantId: caller.tenantId, processRef: caller.processRef, definitionId: form.definition.id };
    await insertEmbedSessionIfAbsent(tx, key);
    if (!(await linkEmbedSession(tx, { ...key, instanceId }))) {
      await assertSessionOpen(tx, session);
      throw alreadyLinked();
    }
    // The documents are the documents capability's: it binds them to the instance, in this transaction.
    const documentIds = await linkProcessAttachments(tx, { tenantId: caller.tenantId, processRef: caller.processRef, instanceId });
    return { instanceId, documentIds };
  });
}
