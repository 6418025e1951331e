// The registry's three guard layers. Layer 1 (tenant) is the identity middleware in front of
// every documents route; these are layer 2 (capability of the document) and layer 3 (context).
import type { DbOrTx } from '../../db/client';
import type { CallerSnapshot } from '../../db/queries/caller-snapshot';
import { capabilityStanding, effectiveLevels } from '../../db/queries/entitlements';
import { getDocumentProcess, outboxWorkflowFor } from '../../db/queries/documents';
import { DOCUMENT_CAPABILITIES } from '../../db/schema/documents';
import { forbidden } from '../../domain/errors';

/** Who the registry decides for; the identity middleware's snapshot saves the round trips when present. */
export interface GuardCaller {
  tenantId: string;
  userId: string;
  snapshot?: Pick<CallerSnapshot, 'subscriptions' | 'grants'>;
}

async function standing(db: DbOrTx, caller: GuardCaller, code: string) {
  if (!caller.snapshot) return capabilityStanding(db, caller.tenantId, caller.userId, code);
  return { subscription: caller.snapshot.subscriptions[code] ?? null, level: caller.snapshot.grants[code] ?? null };
}

/** Same layers and codes as the capability-guard middleware, for a capability named by the document. */
export async function assertCapability(db: DbOrTx, caller: GuardCaller, code: string, mode: 'read' | 'write') {
  const { subscription, level } = await standing(db, caller, code);
  if (subscription !== 'ACTIVE') {
    throw forbidden('capability-not-subscribed', `Tenant has no ACTIVE subscription to ${code}`);
  }
  if (level === null) throw forbidden('capability-not-granted', `Caller has no grant on ${code}`);
  if (mode === 'write' && level !== 'read-write') {
    throw forbidden('capability-write-required', `Writing to ${code} needs a read-write grant`);
  }
}

/** Document capabilities the caller may read (any effective grant) or write (read-write). */
export async function documentCapabilities(db: DbOrTx, caller: GuardCaller, mode: 'read' | 'write') {
  const snapshot = caller.snapshot;
  const levels = snapshot
    ? Object.entries(snapshot.grants)
        .filter(([code]) => snapshot.subscriptions[code] === 'ACTIVE')
        .map(([code, level]) => ({ code, level }))
    : await effectiveLevels(db, caller.tenantId, caller.userId);
  return levels
    .filter((l) => (DOCUMENT_CAPABILITIES as readonly string[]).includes(l.code))
    .filter((l) => mode === 'read' || l.level === 'read-write')
    .map((l) => l.code);
}

/**
 * Layer 3. Every document names its context: a processRef (case level) and optionally a
 * taskId. For SIGNATURES and EMAIL that process must already exist for this tenant (recorded by
 * process-started, or started by the platform's outbox under that business key). FORMS is the
 * carve-out: form attachments are uploaded before submit, and the form's process only starts
 * on submit, so a FORMS document may open a processRef that has no process yet.
 */
export async function assertContext(db: DbOrTx, tenantId: string, capability: string, processRef: string) {
  if (capability === 'FORMS') return;
  if (await getDocumentProcess(db, tenantId, processRef)) return;
  if (await outboxWorkflowFor(db, tenantId, processRef)) return;
  throw forbidden(
    'document-context-required',
    `${capability} documents need a started process for their processRef (FORMS alone may open a new one)`,
  );
}
