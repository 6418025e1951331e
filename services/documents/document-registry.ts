// The document registry (core): authorisation, state and storage keys. It never touches
// storage; storeDocument and the proxy routes move bytes. Every write is optimistic
// (`where version = expected`).
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db } from '../../db/client';
import {
  backfillProcessInstance,
  getDocument,
  getDocumentProcess,
  insertDocument,
  listDocuments,
  recordDocumentProcess,
  updateDocument,
  type DocumentRow,
} from '../../db/queries/documents';
import { getSubscription } from '../../db/queries/entitlements';
import { userNames } from '../../db/queries/membership';
import { retentionPlanFor } from '../../domain/documents/retention';
import { settledColumns } from '../../domain/documents/settled-columns';
import { DocumentInputError, objectKeys, validateKeySegment } from '../../domain/documents/storage-key';
import { AppError, badRequest, conflict, notFound } from '../../domain/errors';
import { decodeKeysetCursor, encodeKeysetCursor } from '../../domain/keyset-cursor';
import type { Settings } from '../../domain/settings';
import { announceAttachment } from './attach-signal';
import { assertMay, createdByOf, listScope, processStartedScope, type DocumentAction, type DocumentFacts, type Subscriptions } from './caller-rules';
import { assertContext } from './document-context';
import { toView, type DocumentView } from './document-view';
import type {
  Authorization,
  AuthorizeInput,
  DocumentPageResult,
  FinalizeInput,
  ListInput,
  ProcessStartedInput,
  ProcessStartedResult,
  RegistryCaller,
  RegistryClient,
  Removal,
  Resolution,
} from './registry-client';
import { enqueueScanRetry } from './scan-retry';

export interface RegistryDeps {
  db: Db;
  settings: Settings;
  logger: Logger;
  clock?: () => Date;
}

const KIND_CAPABILITY: Record<string, string | undefined> = {
  FORM_ATTACHMENT: 'FORMS',
  FORM_SUBMISSION_PDF: 'FORMS',
  SIGNATURE_ATTACHMENT: 'SIGNATURES',
};

function inputError(err: unknown): never {
  if (err instanceof DocumentInputError) {
    throw badRequest('invalid-document-input', err.message, { field: err.field, reason: err.reason });
  }
  throw err;
}

const versionConflict = () => conflict('version-conflict', 'The document was changed concurrently; reload it and retry');

export class DocumentRegistry implements RegistryClient {
  constructor(private readonly d: RegistryDeps) {}

  private now() {
    return this.d.clock?.() ?? new Date();
  }

  /** Tenant-scoped load: another tenant's document is a 404, never a 403. */
  private async load(caller: RegistryCaller, docId: string): Promise<DocumentRow> {
    const row = await getDocument(this.d.db, caller.tenantId, docId);
    if (!row) throw notFound('Document', 'document-not-found');
    return row;
  }

  /** Layer 1 of the capability rule: a user's comes with its snapshot, a principal's is read here. */
  private async subscriptions(caller: RegistryCaller): Promise<Subscriptions> {
    if (caller.kind === 'user') return caller.snapshot.subscriptions;
    const subscription = await getSubscription(this.d.db, caller.tenantId, caller.capability);
    return { [caller.capability]: subscription?.status };
  }

  private async guard(caller: RegistryCaller, action: DocumentAction, doc: DocumentFacts) {
    assertMay(caller, await this.subscriptions(caller), action, doc);
  }

  async authorize(caller: RegistryCaller, input: AuthorizeInput): Promise<Authorization> {
    const expected = KIND_CAPABILITY[input.kind];
    if (expected && expected !== input.capability) {
      throw badRequest('kind-capability-mismatch', `Kind ${input.kind} belongs to capability ${expected}`);
    }
    const docId = input.docId ?? randomUUID();
    let storageKey: string;
    try {
      ({ storageKey } = objectKeys({ tenantId: caller.tenantId, processRef: input.processRef, docId, filename: input.filename }));
    } catch (err) {
      inputError(err);
    }
    const { db } = this.d;
    await this.guard(caller, 'create', input);
    const process = await getDocumentProcess(db, caller.tenantId, input.processRef);
    await assertContext(db, caller.tenantId, input.capability, input.processRef, process !== null);

    let row: DocumentRow;
    if (input.docId) {
      const current = await this.load(caller, input.docId);
      if (input.version === undefined) throw badRequest('version-required', 'Re-authorizing a document needs its version');
      if (current.version !== input.version) throw versionConflict();
      if (current.status !== 'PENDING' || current.scanStatus !== 'NOT_SCANNED') {
        throw conflict('document-not-pending', 'Only a PENDING document without stored bytes can be re-authorized');
      }
      if (current.processRef !== input.processRef || current.capability !== input.capability) {
        throw conflict('document-context-changed', 'A re-authorized document keeps its processRef and capability');
      }
      // A principal may create in this context yet not own this row (a signer re-using another's).
      await this.guard(caller, 'write', current);
      const updated = await updateDocument(db, caller.tenantId, current.id, input.version, {
        storageKey,
        filename: input.filename,
        contentType: input.contentType,
        kind: input.kind,
        taskId: input.taskId ?? null,
        ownerEntityId: input.ownerEntityId ?? null,
      });
      if (!updated) throw versionConflict();
      row = updated;
    } else {
      const createdBy = createdByOf(caller);
      const names = caller.kind === 'user' ? await userNames(db, [caller.userId]) : new Map<string, string>();
      row = await insertDocument(db, {
        id: docId,
        tenantId: caller.tenantId,
        processRef: input.processRef,
        processInstanceId: process?.processInstanceId ?? null,
        taskId: input.taskId ?? null,
        kind: input.kind,
        capability: input.capability,
        ownerEntityId: input.ownerEntityId ?? null,
        storageKey,
        filename: input.filename,
        contentType: input.contentType,
        createdBy,
        createdByName: createdBy === null ? null : (names.get(createdBy) ?? null),
        // The registry's clock, so retention and listing tests can place a document in time.
        createdAt: this.now(),
      });
    }
    return {
      docId,
      version: row.version,
      storageKey: row.storageKey,
      retention: retentionPlanFor(this.d.settings, row.capability),
      document: toView(row),
    };
  }

  async finalize(caller: RegistryCaller, docId: string, input: FinalizeInput): Promise<DocumentView> {
    const current = await this.load(caller, docId);
    await this.guard(caller, 'write', current);
    if (current.version !== input.version) throw versionConflict();
    if (current.status !== 'PENDING' || current.scanStatus !== 'NOT_SCANNED') {
      throw conflict('document-not-pending', 'The document is already finalized');
    }
    const plan = retentionPlanFor(this.d.settings, current.capability);
    if ((input.scan === 'CLEAN' || input.scan === 'SKIPPED') && plan && input.retention?.mode !== plan.mode) {
      // A READY document of a retained capability is always locked, in the capability's mode.
      throw badRequest('retention-required', `A READY ${current.capability} document needs ${plan.mode} retention`);
    }
    const stored = { sizeBytes: input.sizeBytes, sha256: input.sha256, storageVersionId: input.storageVersionId };
    const now = this.now();
    const row = await this.d.db.transaction(async (tx) => {
      const changes =
        input.scan === 'ERROR'
          ? { ...stored, scanStatus: 'ERROR' as const, scanAttempts: current.scanAttempts + 1 }
          : {
              ...stored,
              ...settledColumns(
                {
                  scan: input.scan,
                  signature: input.signature,
                  retention: input.retention ? { mode: input.retention.mode, retainUntil: new Date(input.retention.retainUntil) } : null,
                },
                now,
                current.scanAttempts + (input.scan === 'SKIPPED' ? 0 : 1),
              ),
            };
      const updated = await updateDocument(tx, caller.tenantId, docId, input.version, changes);
      if (!updated) throw versionConflict();
      if (input.scan === 'ERROR') await enqueueScanRetry(tx, this.d.settings, caller.tenantId, docId);
      await announceAttachment(tx, updated);
      return updated;
    });
    return toView(row);
  }

  async resolve(caller: RegistryCaller, docId: string): Promise<Resolution> {
    const row = await this.load(caller, docId);
    await this.guard(caller, 'read', row);
    if (row.status === 'QUARANTINED') throw new AppError('document-quarantined', 'The document is quarantined');
    if (row.status !== 'READY' || !row.storageVersionId) {
      throw conflict('document-not-ready', `The document is ${row.status}, not READY`);
    }
    return { document: toView(row), storageKey: row.storageKey, storageVersionId: row.storageVersionId };
  }

  async get(caller: RegistryCaller, docId: string): Promise<DocumentView> {
    const row = await this.load(caller, docId);
    await this.guard(caller, 'read', row);
    return toView(row);
  }

  async list(caller: RegistryCaller, input: ListInput): Promise<DocumentPageResult> {
    const scope = listScope(caller, await this.subscriptions(caller), input.selector);
    const after = input.cursor ? decodeKeysetCursor(input.cursor) : null;
    const rows = await listDocuments(this.d.db, {
      tenantId: caller.tenantId,
      selector: input.selector,
      capabilities: scope.capabilities,
      kinds: scope.kinds,
      after,
      limit: input.limit + 1,
    });
    const page = rows.slice(0, input.limit);
    const last = page[page.length - 1];
    return {
      items: page.map(toView),
      nextCursor: rows.length > input.limit && last ? encodeKeysetCursor({ createdAt: last.cursorAt, id: last.id }) : null,
    };
  }

  async remove(caller: RegistryCaller, docId: string, expectedVersion?: number): Promise<Removal> {
    const row = await this.load(caller, docId);
    await this.guard(caller, 'delete', row);
    if (expectedVersion !== undefined && row.version !== expectedVersion) throw versionConflict();
    if (row.status === 'DELETED') throw conflict('document-already-deleted', 'The document is already deleted');
    const updated = await updateDocument(this.d.db, caller.tenantId, docId, row.version, {
      status: 'DELETED',
      deletedAt: this.now(),
    });
    if (!updated) throw versionConflict();
    return {
      document: toView(updated),
      storageKey: updated.storageKey,
      storageVersionId: updated.storageVersionId,
      hardDelete: updated.retentionMode === null,
    };
  }

  async processStarted(caller: RegistryCaller, input: ProcessStartedInput): Promise<ProcessStartedResult> {
    try {
      validateKeySegment('processRef', input.processRef);
    } catch (err) {
      inputError(err);
    }
    const { db } = this.d;
    const writable = processStartedScope(caller, await this.subscriptions(caller));
    return db.transaction(async (tx) => {
      const stored = await recordDocumentProcess(tx, {
        tenantId: caller.tenantId,
        processRef: input.processRef,
        processInstanceId: input.processInstanceId,
        workflowId: input.workflowId ?? null,
        startedBy: createdByOf(caller),
      });
      if (stored.processInstanceId !== input.processInstanceId) {
        throw conflict('process-already-started', 'Another process instance is already recorded for this processRef');
      }
      const updated = await backfillProcessInstance(tx, caller.tenantId, input.processRef, input.processInstanceId, writable);
      return { processRef: input.processRef, processInstanceId: input.processInstanceId, updated };
    });
  }
}
