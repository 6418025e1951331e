import type { Db, DbOrTx } from '../../db/client';
import { insertAudit } from '../../db/queries/access-audit';
import {
  decideAccessRequest,
  expireOverdueRequests,
  getAccessRequest,
  insertAccessRequest,
  listAccessRequests,
  type AccessRequestRow,
  type AccessRequestStatus,
  type OverdueRequestScope,
} from '../../db/queries/access-requests';
import { capabilityNames, getCapability } from '../../db/queries/catalog';
import { getGrant, getSubscription } from '../../db/queries/entitlements';
import { lockTenant, userNames } from '../../db/queries/membership';
import { withTransactionRetry } from '../../db/transaction-retry';
import { approvalExpiry, requireFutureExpiry } from '../../domain/access/expiry';
import { levelCovers, type Level } from '../../domain/access/levels';
import { AppError, conflict, forbidden, notFound } from '../../domain/errors';
import { setGrant } from './grants';

/**
 * Who acts on a request, in which tenant: the requester, or the owner or operator deciding; and
 * the lifetime of a PENDING request (setting access.request-ttl-days; its default when absent).
 */
export interface RequestActor {
  tenantId: string;
  userId: string;
  requestTtlDays?: number | undefined;
}

/** The default of access.request-ttl-days, for callers that do not pass the setting. */
const DEFAULT_REQUEST_TTL_DAYS = 30;

/**
 * Requests past their lifetime become EXPIRED before any operation reads or decides them, so the
 * lifetime holds to the minute even between runs of the expiry sweep (docs/access.md "Expiry").
 */
async function expireOverdue(db: DbOrTx, who: Pick<RequestActor, 'tenantId' | 'requestTtlDays'>, scope: Omit<Extract<OverdueRequestScope, { tenantId: string }>, 'tenantId'> = {}) {
  await expireOverdueRequests(db, { ttlDays: who.requestTtlDays ?? DEFAULT_REQUEST_TTL_DAYS, scope: { tenantId: who.tenantId, ...scope } });
}

/** A request with the names of its requester, capability and decider. */
export type NamedAccessRequest = AccessRequestRow & {
  userName: string | null;
  capabilityName: string | null;
  decidedByName: string | null;
};

/** Names and labels are resolved at read time, so renames show up everywhere at once. */
async function withNames(db: Db, rows: AccessRequestRow[]): Promise<NamedAccessRequest[]> {
  const [names, labels] = await Promise.all([
    userNames(
      db,
      rows.flatMap((r) => (r.decidedBy ? [r.userId, r.decidedBy] : [r.userId])),
    ),
    capabilityNames(db),
  ]);
  return rows.map((r) => ({
    ...r,
    userName: names.get(r.userId) ?? null,
    capabilityName: labels.get(r.capabilityCode) ?? null,
    decidedByName: r.decidedBy ? (names.get(r.decidedBy) ?? null) : null,
  }));
}
const withName = async (db: Db, row: AccessRequestRow) => (await withNames(db, [row]))[0]!;

/** A tenant's requests, newest first: one user's (any status), or those in one status. */
export async function listAccessRequestsWithNames(
  db: Db,
  input: { tenantId: string; userId?: string; status?: AccessRequestStatus; requestTtlDays?: number | undefined },
) {
  const { tenantId, requestTtlDays, ...filter } = input;
  await expireOverdue(db, { tenantId, requestTtlDays });
  return withNames(db, await listAccessRequests(db, tenantId, filter));
}

export async function submitAccessRequest(
  db: Db,
  input: RequestActor & { capabilityCode: string; requestedLevel: Level; note?: string | undefined; durationDays?: number | undefined },
) {
  const { tenantId, userId } = input;
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
  // An open request past its lifetime no longer holds the one-open-request rule.
  await expireOverdue(db, input, { userId, capabilityCode: code });
  const row = await insertAccessRequest(db, {
    tenantId,
    userId,
    capabilityCode: code,
    requestedLevel: input.requestedLevel,
    note: input.note ?? null,
    requestedDurationDays: input.durationDays ?? null,
  });
  if (!row) throw conflict('request-already-open', `An open request for ${code} already exists`);
  return withName(db, row);
}

/** Who acts on which request. */
type RequestDecision = RequestActor & { id: string };

export async function cancelAccessRequest(db: Db, input: RequestDecision) {
  const { id, ...caller } = input;
  await expireOverdue(db, caller, { id });
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
  return withName(db, cancelled);
}

async function loadForDecision(db: Db, caller: RequestActor, id: string) {
  await expireOverdue(db, caller, { id });
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
export async function approveAccessRequest(
  db: Db,
  input: RequestDecision & { level?: Level | undefined; expiresAt?: Date | undefined; now?: Date | undefined },
) {
  const { id, level, expiresAt: askedEnd, now: at, ...caller } = input;
  const now = at ?? new Date();
  requireFutureExpiry(askedEnd, now);
  const row = await loadForDecision(db, caller, id);
  const expiresAt = approvalExpiry({ expiresAt: askedEnd, requestedDurationDays: row.requestedDurationDays, now });
  const approved = await withTransactionRetry(db, async (tx) => {
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
      expiresAt,
    });
    await insertAudit(tx, {
      tenantId: caller.tenantId,
      actor: caller.userId,
      action: 'request.approve',
      subjectUserId: row.userId,
      capabilityCode: row.capabilityCode,
      detail: { accessRequestId: id, level: granted, ...(expiresAt ? { expiresAt: expiresAt.toISOString() } : {}) },
    });
    return decided;
  });
  return withName(db, approved);
}

export async function denyAccessRequest(db: Db, input: RequestDecision & { decisionNote?: string | undefined }) {
  const { id, decisionNote, ...caller } = input;
  const row = await loadForDecision(db, caller, id);
  const denied = await withTransactionRetry(db, async (tx) => {
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
  return withName(db, denied);
}

/** The expiry sweep's step: a batch of PENDING requests past `ttlDays` → EXPIRED (oldest first). */
export async function expireRequestsBatch(db: Db, input: { ttlDays: number; batchSize: number }) {
  const tenants = await expireOverdueRequests(db, { ttlDays: input.ttlDays, scope: { batchSize: input.batchSize } });
  const byTenant: Record<string, number> = {};
  for (const tenantId of tenants) byTenant[tenantId] = (byTenant[tenantId] ?? 0) + 1;
  return { expired: tenants.length, byTenant };
}
