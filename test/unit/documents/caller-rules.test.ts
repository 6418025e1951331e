// Each kind of registry caller is authorised by its own rule (services/documents/caller-rules.ts):
// the allowed and the refused cases of each, with the 403 code a refusal answers.
import { describe, expect, it } from 'vitest';
import {
  assertMay,
  createdByOf,
  listScope,
  processStartedScope,
  type DocumentAction,
  type DocumentFacts,
} from '../../../services/documents/caller-rules';
import type { EmbedCaller, SignerCaller, UserCaller, WorkflowCaller } from '../../../services/documents/registry-caller';

const ACTIVE = { FORMS: 'ACTIVE', SIGNATURES: 'ACTIVE', EMAIL: 'ACTIVE' };
const NONE = {};

const user = (grants: Record<string, string>, subscriptions: Record<string, string> = ACTIVE): UserCaller => ({
  kind: 'user',
  tenantId: 't1',
  userId: 'alice',
  snapshot: { subscriptions, grants },
});
const workflow: WorkflowCaller = { kind: 'workflow', tenantId: 't1', capability: 'SIGNATURES', workflowId: 'signatures:t1:req-1' };
const embed: EmbedCaller = { kind: 'embed', tenantId: 't1', capability: 'FORMS', processRef: 'embed-session-1' };
const signer: SignerCaller = { kind: 'signer', tenantId: 't1', capability: 'SIGNATURES', processRef: 'req-1', signerId: 'r-2' };

const doc = (over: Partial<DocumentFacts> = {}): DocumentFacts => ({ capability: 'FORMS', kind: 'FORM_ATTACHMENT', processRef: 'case-1', ...over });

function refusal(fn: () => unknown): { status?: number; code?: string } | null {
  try {
    fn();
    return null;
  } catch (err) {
    return { status: (err as { status?: number }).status, code: (err as { code?: string }).code };
  }
}
const allowed = (fn: () => unknown) => expect(refusal(fn)).toBeNull();
const refused = (fn: () => unknown, code: string) => expect(refusal(fn)).toEqual({ status: 403, code });

describe('createdBy of each caller', () => {
  it('a user is its user id, a workflow and a signer are prefixed, an embed respondent is anonymous (null)', () => {
    expect(createdByOf(user({}))).toBe('alice');
    expect(createdByOf(workflow)).toBe('workflow:signatures:t1:req-1');
    expect(createdByOf(signer)).toBe('signer:r-2');
    expect(createdByOf(embed)).toBeNull();
  });
});

describe('user rule: the capability guard on the document capability', () => {
  it('reads with a read grant, writes (create, write, delete) only with read-write', () => {
    const reader = user({ FORMS: 'read' });
    allowed(() => assertMay(reader, NONE, 'read', doc()));
    for (const action of ['create', 'write', 'delete'] as DocumentAction[]) {
      refused(() => assertMay(reader, NONE, action, doc()), 'capability-write-required');
      allowed(() => assertMay(user({ FORMS: 'read-write' }), NONE, action, doc()));
    }
  });

  it('no grant: capability-not-granted; no subscription: capability-not-subscribed', () => {
    refused(() => assertMay(user({ EMAIL: 'read-write' }), NONE, 'read', doc()), 'capability-not-granted');
    refused(() => assertMay(user({ FORMS: 'read-write' }, {}), NONE, 'read', doc()), 'capability-not-subscribed');
  });

  it('lists the capabilities it may read; process-started backfills those it may write, else 403', () => {
    const u = user({ FORMS: 'read-write', SIGNATURES: 'read' });
    expect(listScope(u, NONE, { taskId: 'x' })).toEqual({ capabilities: ['FORMS', 'SIGNATURES'] });
    expect(processStartedScope(u, NONE)).toEqual(['FORMS']);
    refused(() => processStartedScope(user({ FORMS: 'read' }), NONE), 'capability-not-granted');
  });
});

describe('workflow rule: documents of its own capability within its tenant', () => {
  it('creates, reads, writes and deletes any kind and processRef of its capability', () => {
    for (const action of ['create', 'read', 'write', 'delete'] as DocumentAction[]) {
      allowed(() => assertMay(workflow, ACTIVE, action, doc({ capability: 'SIGNATURES', kind: 'GENERIC', processRef: 'any' })));
    }
  });

  it("refuses another capability's documents: capability-not-granted", () => {
    for (const action of ['create', 'read', 'write', 'delete'] as DocumentAction[]) {
      refused(() => assertMay(workflow, ACTIVE, action, doc({ capability: 'FORMS' })), 'capability-not-granted');
    }
  });

  it('needs its tenant subscribed to its capability: capability-not-subscribed, and an empty list', () => {
    refused(() => assertMay(workflow, { SIGNATURES: 'SUSPENDED' }, 'read', doc({ capability: 'SIGNATURES' })), 'capability-not-subscribed');
    expect(listScope(workflow, NONE, { processRef: 'p' })).toEqual({ capabilities: [] });
    refused(() => processStartedScope(workflow, NONE), 'capability-not-subscribed');
  });

  it('lists its capability under any selector and records processes of it', () => {
    expect(listScope(workflow, ACTIVE, { capability: 'SIGNATURES', ownerEntityId: 'o' })).toEqual({ capabilities: ['SIGNATURES'] });
    expect(processStartedScope(workflow, ACTIVE)).toEqual(['SIGNATURES']);
  });
});

describe('embed rule: form attachments under its own processRef', () => {
  const mine = doc({ processRef: 'embed-session-1' });

  it('creates, reads, finalizes and deletes FORM_ATTACHMENT documents of its processRef', () => {
    for (const action of ['create', 'read', 'write', 'delete'] as DocumentAction[]) allowed(() => assertMay(embed, ACTIVE, action, mine));
  });

  it('refuses another processRef, another kind of FORMS document, another capability: document-out-of-scope', () => {
    for (const action of ['create', 'read', 'write', 'delete'] as DocumentAction[]) {
      refused(() => assertMay(embed, ACTIVE, action, doc({ processRef: 'embed-session-2' })), 'document-out-of-scope');
      refused(() => assertMay(embed, ACTIVE, action, { ...mine, kind: 'FORM_SUBMISSION_PDF' }), 'document-out-of-scope');
      refused(() => assertMay(embed, ACTIVE, action, { ...mine, kind: 'SIGNATURE_ATTACHMENT', capability: 'SIGNATURES' }), 'document-out-of-scope');
    }
  });

  it('needs FORMS subscribed: capability-not-subscribed', () => {
    refused(() => assertMay(embed, { SIGNATURES: 'ACTIVE' }, 'create', mine), 'capability-not-subscribed');
  });

  it('lists only its processRef, and only form attachments; any other selector is document-out-of-scope', () => {
    expect(listScope(embed, ACTIVE, { processRef: 'embed-session-1' })).toEqual({ capabilities: ['FORMS'], kinds: ['FORM_ATTACHMENT'] });
    refused(() => listScope(embed, ACTIVE, { processRef: 'embed-session-2' }), 'document-out-of-scope');
    refused(() => listScope(embed, ACTIVE, { taskId: 't' }), 'document-out-of-scope');
    refused(() => listScope(embed, ACTIVE, { capability: 'FORMS', ownerEntityId: 'f' }), 'document-out-of-scope');
  });

  it('never records a started process', () => {
    refused(() => processStartedScope(embed, ACTIVE), 'document-out-of-scope');
  });
});

describe('signer rule: its mark under its signature request, reads within it', () => {
  const mark = { capability: 'SIGNATURES', kind: 'SIGNATURE_ATTACHMENT', processRef: 'req-1' };
  const own = { ...mark, createdBy: 'signer:r-2', status: 'PENDING' };

  it('creates SIGNATURE_ATTACHMENT documents under its processRef only', () => {
    allowed(() => assertMay(signer, ACTIVE, 'create', mark));
    refused(() => assertMay(signer, ACTIVE, 'create', { ...mark, kind: 'GENERIC' }), 'document-out-of-scope');
    refused(() => assertMay(signer, ACTIVE, 'create', { ...mark, processRef: 'req-2' }), 'document-out-of-scope');
    refused(() => assertMay(signer, ACTIVE, 'create', doc({ processRef: 'req-1' })), 'document-out-of-scope');
  });

  it("reads every SIGNATURES document of its processRef (another signer's, the sealed PDF), nothing outside it", () => {
    allowed(() => assertMay(signer, ACTIVE, 'read', { ...mark, createdBy: 'signer:r-1', status: 'READY' }));
    allowed(() => assertMay(signer, ACTIVE, 'read', { ...mark, kind: 'GENERIC', createdBy: 'workflow:w', status: 'READY' }));
    refused(() => assertMay(signer, ACTIVE, 'read', { ...mark, processRef: 'req-2' }), 'document-out-of-scope');
  });

  it("finalizes only its own mark, deletes it only while PENDING (a failed upload), never another's", () => {
    allowed(() => assertMay(signer, ACTIVE, 'write', own));
    allowed(() => assertMay(signer, ACTIVE, 'delete', own));
    refused(() => assertMay(signer, ACTIVE, 'delete', { ...own, status: 'READY' }), 'document-out-of-scope');
    refused(() => assertMay(signer, ACTIVE, 'write', { ...own, createdBy: 'signer:r-1' }), 'document-out-of-scope');
    refused(() => assertMay(signer, ACTIVE, 'delete', { ...own, createdBy: 'signer:r-1' }), 'document-out-of-scope');
  });

  it('needs SIGNATURES subscribed, lists only its processRef, never records a process', () => {
    refused(() => assertMay(signer, { FORMS: 'ACTIVE' }, 'read', mark), 'capability-not-subscribed');
    expect(listScope(signer, ACTIVE, { processRef: 'req-1' })).toEqual({ capabilities: ['SIGNATURES'] });
    refused(() => listScope(signer, ACTIVE, { taskId: 't' }), 'document-out-of-scope');
    refused(() => processStartedScope(signer, ACTIVE), 'document-out-of-scope');
  });
});
