import type { Db } from '../../db/client';
import { insertAudit } from '../../db/queries/access-audit';
import {
  decideAccessRequest,
  getAccessRequest,
  insertAccessRequest,
} from '../../db/queries/access-requests';
import { getCapability } from '../../db/queries/catalog';
import { getGrant, getSubscription } from '../../db/queries/entitlements';
import { lockTenant } from '../../db/queries/membership';
import { withTransactionRetry } from '../../db/transaction-retry';
import { levelCovers, type Level } from '../../domain/access/levels';
import { AppError, conflict, forbidden, notFound } from '../../domain/errors';
import { setGrant } from './grants';

/** Who acts on a request, in which tenant: the requester, or the owner or operator deciding. */
export interface RequestActor {
  tenantId: string;
  userId: string;
}

export async function submitAccessRequest(
  db: Db,
  caller: RequestActor,
  input: { capabilityCode: string; requestedLevel: Level; note?: string | undefined },
) {
  const { tenantId, userId } = caller;
  const code = input.capabilityCode;
  const capability = await getCapability(db, code);
  if (!capability || capability.status === 'RETIRED') {
    throw new AppError('capability-unknown', `Capability ${code} is not in the catalog`);
  }
  const subscription = await getSubscription(db, tenantId, code);
  if (subscription?.status !== 'ACTIVE') {
    throw new AppError('requested-capability-not-subscribed', `Tenant is not subscribed to ${code}`);
  }
  const grant = await getGrant(db, tenantId, userId, code);
  if (grant && levelCovers(grant.level, input.requestedLevel)) {
    throw conflict('already-granted', `Caller already holds ${grant.level} on ${code}`);
  }
  const row = await insertAccessRequest(db, {
    tenantId,
    userId,
    capabilityCode: code,
    requestedLevel: input.requestedLevel,
    note: input.note ?? null,
  });
  if (!row) throw conflict('request-already-open', `An open request for ${code} already exists`);
  return row;
}

export async function cancelAccessRequest(db: Db, caller: RequestActor, id: string) {
  const row = await getAccessRequest(db, caller.tenantId, id);
  if (!row) throw notFound('Access request', 'access-request-not-found');
  if (row.userId !== caller.userId) {
    throw forbidden('not-requester', 'Only the requester may cancel this request');
  }
  const cancelled = await decideAccessRequest(db, caller.tenantId, id, {
    status: 'CANCELLED',
    decidedBy: caller.userId,
  });
  if (!cancelled) throw conflict('request-not-pending', `Request is ${row.status}, not PENDING`);
  return cancelled;
}

async function loadForDecision(db: Db, caller: RequestActor, id: string) {
  const row = await getAccessRequest(db, caller.tenantId, id);
  if (!row) throw notFound('Access request', 'access-request-not-found');
  if (row.userId === caller.userId) {
    throw forbidden('self-approval', 'A request is decided by another owner or an operator, never its requester');
  }
  return row;
}

/**
 * Approve: the request flips and the grant is set in one transaction, via the direct-grant path.
 * The tenant lock comes before the request's row lock, in the order member removal takes them.
 */
export async function approveAccessRequest(db: Db, caller: RequestActor, id: string, level?: Level) {
  const row = await loadForDecision(db, caller, id);
  return withTransactionRetry(db, async (tx) => {
    await lockTenant(tx, caller.tenantId);
    const granted = level ?? row.requestedLevel;
    const decided = await decideAccessRequest(tx, caller.tenantId, id, {
      status: 'APPROVED',
      decidedBy: caller.userId,
      grantedLevel: granted,
    });
    if (!decided) throw conflict('request-not-pending', `Request is ${row.status}, not PENDING`);
    await setGrant(tx, {
      tenantId: caller.tenantId,
      userId: row.userId,
      code: row.capabilityCode,
      level: granted,
      actor: caller.userId,
      via: { accessRequestId: id, requestedLevel: row.requestedLevel },
    });
    await insertAudit(tx, {
      tenantId: caller.tenantId,
      actor: caller.userId,
      action: 'request.approve',
      subjectUserId: row.userId,
      capabilityCode: row.capabilityCode,
      detail: { accessRequestId: id, level: granted },
    });
    return decided;
  });
}

export async function denyAccessRequest(db: Db, caller: RequestActor, id: string, decisionNote?: string) {
  const row = await loadForDecision(db, caller, id);
  return withTransactionRetry(db, async (tx) => {
    const decided = await decideAccessRequest(tx, caller.tenantId, id, {
      status: 'DENIED',
      decidedBy: caller.userId,
      decisionNote: decisionNote ?? null,
    });
    if (!decided) throw conflict('request-not-pending', `Request is ${row.status}, not PENDING`);
    await insertAudit(tx, {
      tenantId: caller.tenantId,
      actor: caller.userId,
      action: 'request.deny',
      subjectUserId: row.userId,
      capabilityCode: row.capabilityCode,
      detail: { accessRequestId: id, decisionNote: decisionNote ?? null },
    });
    return decided;
  });
}
