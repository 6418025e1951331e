// Layers 1 and 2 of the registry's guard, one rule per kind of caller. Layer 1 (tenant) is not
// here: every row is loaded under the caller's own tenant, so another tenant's document is a 404
// for every caller. Layer 3 (context) is document-context.ts and applies to every caller alike.
//
// - user: the capability guard's rule on the document's capability (subscription, grant, and
//   read-write for anything but reading), from the identity middleware's snapshot.
// - workflow: documents of its own capability, any kind and processRef of its tenant.
// - embed: FORM_ATTACHMENT documents under its own processRef only (create, read, delete).
// - signer: creates SIGNATURE_ATTACHMENT documents under its processRef and reads that
//   processRef's SIGNATURES documents; finalizes its own, and deletes its own only while PENDING
//   (a failed upload), so a recorded mark is never withdrawn through a signing token.
// A principal also needs its tenant's ACTIVE subscription to its capability (as a user does).
// Refusals are 403: the capability guard's codes where they fit, else `document-out-of-scope`.
import { DOCUMENT_CAPABILITIES } from '../../domain/documents/document-fields';
import type { ListSelector } from '../../db/queries/documents';
import { assertCapabilityAccess, assertSubscribed as assertTenantSubscribed, hasCapabilityAccess } from '../../domain/access/capability-access';
import { AppError, forbidden } from '../../domain/errors';
import type { EmbedCaller, RegistryCaller, ServicePrincipal, SignerCaller } from './registry-caller';

export type DocumentAction = 'create' | 'read' | 'write' | 'delete';

/** What the rules read of a document: a row, or the fields of one about to be created. */
export interface DocumentFacts {
  capability: string;
  kind: string;
  processRef: string;
  /** Of an existing row; absent on create. */
  createdBy?: string | null;
  status?: string;
}

/** Subscription statuses by capability code: the snapshot's for a user, loaded for a principal. */
export type Subscriptions = Readonly<Record<string, string | undefined>>;

/** What a list may show: rows of these capabilities (and kinds, when given) matching the selector. */
export interface ListScope {
  capabilities: string[];
  kinds?: string[];
}

/** `createdBy` of what a caller creates: the user id, `workflow:<id>`, `signer:<id>`; null for an anonymous embed respondent. */
export function createdByOf(caller: RegistryCaller): string | null {
  switch (caller.kind) {
    case 'user':
      return caller.userId;
    case 'workflow':
      return `workflow:${caller.workflowId}`;
    case 'embed':
      return null;
    case 'signer':
      return `signer:${caller.signerId}`;
  }
}

/** May `caller` do `action` to `doc`? Throws 403 when not. */
export function assertMay(caller: RegistryCaller, subscriptions: Subscriptions, action: DocumentAction, doc: DocumentFacts): void {
  if (caller.kind === 'user') {
    assertCapabilityAccess(caller.snapshot, doc.capability, action === 'read' ? 'read' : 'write');
    return;
  }
  assertSubscribed(caller, subscriptions);
  switch (caller.kind) {
    case 'workflow':
      if (doc.capability !== caller.capability) {
        throw forbidden('capability-not-granted', `A ${caller.capability} workflow has no access to ${doc.capability} documents`);
      }
      return;
    case 'embed':
      if (!embedMay(caller, doc)) throw outOfScope('An embed token covers only the form attachments of its own session');
      return;
    case 'signer':
      if (!signerMay(caller, action, doc)) throw outOfScope(signerRefusal(action));
      return;
  }
}

/** Lists are filtered for users and workflows (never a 403); embed and signer tokens list only their processRef. */
export function listScope(caller: RegistryCaller, subscriptions: Subscriptions, selector: ListSelector): ListScope {
  if (caller.kind === 'user') {
    return { capabilities: DOCUMENT_CAPABILITIES.filter((code) => hasCapabilityAccess(caller.snapshot, code, 'read')) };
  }
  const capabilities = subscriptions[caller.capability] === 'ACTIVE' ? [caller.capability] : [];
  if (caller.kind === 'workflow') return { capabilities };
  if (!('processRef' in selector) || selector.processRef !== caller.processRef) {
    throw outOfScope('A token lists only the documents of its own processRef');
  }
  return caller.kind === 'embed' ? { capabilities, kinds: ['FORM_ATTACHMENT'] } : { capabilities };
}

/** Capabilities whose rows `process-started` backfills for this caller; throws when it may not record a process. */
export function processStartedScope(caller: RegistryCaller, subscriptions: Subscriptions): string[] {
  if (caller.kind === 'user') {
    const writable = DOCUMENT_CAPABILITIES.filter((code) => hasCapabilityAccess(caller.snapshot, code, 'write'));
    if (writable.length === 0) {
      throw new AppError('capability-not-granted', 'Caller has no read-write grant on a document capability');
    }
    return writable;
  }
  if (caller.kind !== 'workflow') throw outOfScope('A token cannot record a started process');
  assertSubscribed(caller, subscriptions);
  return [caller.capability];
}

/** Layer 1 of the one capability rule, for the principal's own capability. */
function assertSubscribed(caller: ServicePrincipal, subscriptions: Subscriptions) {
  assertTenantSubscribed({ subscriptions }, caller.capability);
}

function embedMay(caller: EmbedCaller, doc: DocumentFacts): boolean {
  return doc.capability === 'FORMS' && doc.kind === 'FORM_ATTACHMENT' && doc.processRef === caller.processRef;
}

function signerMay(caller: SignerCaller, action: DocumentAction, doc: DocumentFacts): boolean {
  if (doc.capability !== 'SIGNATURES' || doc.processRef !== caller.processRef) return false;
  switch (action) {
    case 'read':
      return true;
    case 'create':
      return doc.kind === 'SIGNATURE_ATTACHMENT';
    case 'write':
      return doc.kind === 'SIGNATURE_ATTACHMENT' && doc.createdBy === createdByOf(caller);
    case 'delete':
      return doc.kind === 'SIGNATURE_ATTACHMENT' && doc.createdBy === createdByOf(caller) && doc.status === 'PENDING';
  }
}

function signerRefusal(action: DocumentAction): string {
  if (action === 'read') return "A signing token reads only its signature request's documents";
  if (action === 'create') return "A signing token stores only signature attachments under its signature request's processRef";
  return 'A signing token changes only its own signature attachments (deletes only a PENDING one)';
}

const outOfScope = (detail: string) => forbidden('document-out-of-scope', detail);
