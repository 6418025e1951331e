import { and, asc, desc, eq, getTableColumns, inArray, isNull, ne, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx } from '../client';
import { isUniqueViolation } from '../errors';
import type { KeysetPosition } from '../../domain/keyset-cursor';
import { PhoneCallProcess } from '../../domain/phone/call-process';
import { signalRowsFrom, signalRowValues, wakeDispatchers } from '../outbox';
import { phoneCalls } from '../schema/phone';
import { afterKeyset, keysetTimestamp } from './keyset';

export type PhoneCallRow = typeof phoneCalls.$inferSelect;
export type NewPhoneCall = typeof phoneCalls.$inferInsert;
export type PhoneCallPatch = Partial<Omit<NewPhoneCall, 'id' | 'tenantId' | 'businessKey' | 'version' | 'createdAt'>>;

// ---- calls

export async function insertPhoneCall(db: DbOrTx, values: NewPhoneCall) {
  const rows = await db.insert(phoneCalls).values(values).returning();
  return rows[0]!;
}

/** Inserts unless the provider call id is known already; null means "someone recorded it first". */
export async function insertPhoneCallIfNew(db: DbOrTx, values: NewPhoneCall) {
  const rows = await db
    .insert(phoneCalls)
    .values(values)
    .onConflictDoNothing({ target: phoneCalls.providerCallId })
    .returning();
  return rows[0] ?? null;
}

export async function getPhoneCall(db: DbOrTx, tenantId: string, id: string) {
  const rows = await db
    .select()
    .from(phoneCalls)
    .where(and(eq(phoneCalls.tenantId, tenantId), eq(phoneCalls.id, id)));
  return rows[0] ?? null;
}

export async function findPhoneCallByPlacementKey(db: DbOrTx, tenantId: string, placementKey: string) {
  const rows = await db
    .select()
    .from(phoneCalls)
    .where(and(eq(phoneCalls.tenantId, tenantId), eq(phoneCalls.placementKey, placementKey)));
  return rows[0] ?? null;
}

export async function findPhoneCallByProviderId(db: DbOrTx, providerCallId: string) {
  const rows = await db.select().from(phoneCalls).where(eq(phoneCalls.providerCallId, providerCallId));
  return rows[0] ?? null;
}

export async function lockPhoneCall(tx: DbOrTx, tenantId: string, id: string) {
  const rows = await tx
    .select()
    .from(phoneCalls)
    .where(and(eq(phoneCalls.tenantId, tenantId), eq(phoneCalls.id, id)))
    .for('update');
  return rows[0] ?? null;
}

/** Optimistic update: null when the row moved on (another writer bumped the version). */
export async function updatePhoneCall(db: DbOrTx, row: Pick<PhoneCallRow, 'id' | 'version'>, patch: PhoneCallPatch) {
  const rows = await db
    .update(phoneCalls)
    .set({ ...patch, version: row.version + 1, updatedAt: sql`now()` })
    .where(and(eq(phoneCalls.id, row.id), eq(phoneCalls.version, row.version)))
    .returning();
  return rows[0] ?? null;
}

/**
 * A provider message that overtook its placement (the provider's call id is not recorded yet)
 * joins the outbound call it names by our id, but only while that placement is still in flight:
 * QUEUED, outbound, no provider id. True when the id was recorded here.
 */
export async function attachProviderCallId(db: DbOrTx, id: string, providerCallId: string) {
  try {
    const rows = await db
      .update(phoneCalls)
      .set({ providerCallId, version: sql`${phoneCalls.version} + 1`, updatedAt: sql`now()` })
      .where(
        and(eq(phoneCalls.id, id), isNull(phoneCalls.providerCallId), eq(phoneCalls.status, 'QUEUED'), eq(phoneCalls.direction, 'OUTBOUND')),
      )
      .returning({ id: phoneCalls.id });
    return rows.length > 0;
  } catch (err) {
    // Another call already holds this provider id: the message belongs to that one, not this.
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

/**
 * The call a provider message is about: the one holding its provider id or, for a message that
 * overtook its placement, the outbound call our id names while that placement is in flight
 * (QUEUED, no provider id yet, and no other call holds the provider id). The statements that
 * use this also record the provider id, which is a no-op for the first kind.
 */
export interface MessageCallKey {
  providerCallId: string;
  platformCallId?: string | null;
}

/** A value of a statement: bound now, or a placeholder bound at each execution of a statement built once. */
type Bound = string | number | null | Placeholder;

function messageCall(providerCallId: Bound, platformCallId: Bound | undefined): SQL {
  const held = sql`${phoneCalls.providerCallId} = ${providerCallId}`;
  if (platformCallId === undefined) return held;
  const overtaken = and(
    sql`${phoneCalls.id} = ${platformCallId}`,
    isNull(phoneCalls.providerCallId),
    eq(phoneCalls.status, 'QUEUED'),
    eq(phoneCalls.direction, 'OUTBOUND'),
    sql`not exists (select 1 from phone_calls held where held.provider_call_id = ${providerCallId})`,
  );
  return or(held, overtaken)!;
}

type CallStatus = PhoneCallRow['status'];
const isTerminalStatus = (status: CallStatus) => status === 'ENDED' || status === 'FAILED';

/** The columns a status move sets; startedAt / endedAt / endedReason only where still empty. */
function statusMoveSet(
  to: CallStatus,
  v: { providerCallId: Bound; at: Bound; endedReason: Bound | undefined },
): PgUpdateSetSource<typeof phoneCalls> {
  const terminal = isTerminalStatus(to);
  const at = sql`${v.at}::timestamptz`;
  return {
    status: to,
    providerCallId: sql`${v.providerCallId}`,
    version: sql`${phoneCalls.version} + 1`,
    updatedAt: sql`now()`,
    ...(to === 'IN_PROGRESS' ? { startedAt: sql`coalesce(${phoneCalls.startedAt}, ${at})` } : {}),
    ...(terminal ? { endedAt: sql`coalesce(${phoneCalls.endedAt}, ${at})` } : {}),
    ...(terminal && v.endedReason !== undefined ? { endedReason: sql`coalesce(${phoneCalls.endedReason}, ${v.endedReason}::text)` } : {}),
  };
}

/**
 * One-statement status move for the webhook hot path: applies only while the call's status is
 * one of `from` (the caller derives that set from the domain's ordering rule), stamping
 * startedAt / endedAt / endedReason only where still empty. A move to ENDED or FAILED is a
 * settling statement: it also writes the call's PhoneCallEnded row (settle). Null when nothing matched.
 */
export async function advancePhoneCallStatus(
  db: Db,
  key: MessageCallKey,
  move: { from: readonly CallStatus[]; to: CallStatus; at: Date; endedReason: string | null },
) {
  if (isTerminalStatus(move.to)) {
    const overtaking = Boolean(key.platformCallId);
    const hasReason = Boolean(move.endedReason);
    return settle(db, `status ${move.from.join(',')}>${move.to} ${overtaking} ${hasReason}`, () => ({
      set: statusMoveSet(move.to, { providerCallId: bind('providerCallId'), at: bind('at'), endedReason: hasReason ? bind('endedReason') : undefined }),
      where: and(messageCall(bind('providerCallId'), overtaking ? bind('platformCallId') : undefined), inArray(phoneCalls.status, [...move.from]))!,
    }), {
      providerCallId: key.providerCallId,
      platformCallId: key.platformCallId ?? null,
      at: move.at.toISOString(),
      endedReason: move.endedReason,
    });
  }
  const rows = await db
    .update(phoneCalls)
    .set(statusMoveSet(move.to, { providerCallId: key.providerCallId, at: move.at.toISOString(), endedReason: move.endedReason || undefined }))
    .where(and(messageCall(key.providerCallId, key.platformCallId || undefined), inArray(phoneCalls.status, [...move.from])))
    .returning();
  return rows[0] ?? null;
}

export interface PhoneCallReport {
  /** The status move the report makes, as in advancePhoneCallStatus. */
  move: { from: readonly CallStatus[]; to: CallStatus; at: Date };
  endedReason: string | null;
  transcript: string | null;
  recordingUrl: string | null;
  summary: string | null;
  cost: number | null;
  analysis: Record<string, unknown> | null;
  endPayload: Record<string, unknown> | null;
  startedAt: Date | null;
  endedAt: Date | null;
}

/**
 * The end-of-call-report in one statement: stored only while the call holds no report (none
 * yet, or a reconciliation snapshot, which it replaces); the status moves while it is one of
 * `move.from`. The report's endedReason, startedAt and endedAt win over the stored ones; endedAt
 * falls back to `move.at`. The call is terminal afterwards, so this is a settling statement: it
 * also writes the call's PhoneCallEnded row (settle). Null when the call is untracked or its
 * report is stored already (and then nothing is written).
 */
export async function storePhoneCallReport(db: Db, key: MessageCallKey, report: PhoneCallReport) {
  const { move } = report;
  const overtaking = Boolean(key.platformCallId);
  const instant = (name: string) => sql`${bind(name)}::timestamptz`;
  const json = (value: Record<string, unknown> | null) => (value === null ? null : JSON.stringify(value));
  return settle(db, `report ${move.from.join(',')}>${move.to} ${overtaking}`, () => ({
    set: {
      transcript: sql`${bind('transcript')}::text`,
      recordingUrl: sql`${bind('recordingUrl')}::text`,
      summary: sql`${bind('summary')}::text`,
      cost: sql`${bind('cost')}::float8`,
      analysis: sql`${bind('analysis')}::jsonb`,
      endPayload: sql`${bind('endPayload')}::jsonb`,
      providerCallId: sql`${bind('providerCallId')}`,
      endSource: 'webhook',
      status: sql`case when ${inArray(phoneCalls.status, [...move.from])} then ${move.to} else ${phoneCalls.status} end`,
      endedReason: sql`coalesce(${bind('endedReason')}::text, ${phoneCalls.endedReason})`,
      startedAt: sql`coalesce(${instant('startedAt')}, ${phoneCalls.startedAt})`,
      endedAt: sql`coalesce(${instant('endedAt')}, ${phoneCalls.endedAt}, ${instant('at')})`,
      version: sql`${phoneCalls.version} + 1`,
      updatedAt: sql`now()`,
    },
    where: and(messageCall(bind('providerCallId'), overtaking ? bind('platformCallId') : undefined), sql`${phoneCalls.endSource} is distinct from 'webhook'`)!,
  }), {
    providerCallId: key.providerCallId,
    platformCallId: key.platformCallId ?? null,
    transcript: report.transcript,
    recordingUrl: report.recordingUrl,
    summary: report.summary,
    cost: report.cost,
    analysis: json(report.analysis),
    endPayload: json(report.endPayload),
    endedReason: report.endedReason,
    startedAt: report.startedAt?.toISOString() ?? null,
    endedAt: report.endedAt?.toISOString() ?? null,
    at: move.at.toISOString(),
  });
}

const bind = (name: string) => sql.placeholder(name);

/**
 * Spec, Events 3: a call that became terminal tells its open process. A settling UPDATE and the
 * PhoneCallEnded outbox row are one statement, so one transaction (the row cannot be lost) and
 * one round trip:
 *
 *   with settled as (update phone_calls set ... where <the call> and <the rule> returning *),
 *     phone_call_ended_ready as (select <row values>, pg_advisory_xact_lock(<workflow>) from settled
 *                                where status in ('ENDED', 'FAILED') and process_status <> 'CLOSED'),
 *     phone_call_ended as (insert into outbox (...) select ... from phone_call_ended_ready returning id)
 *   select settled.*, exists (select 1 from phone_call_ended) from settled
 *
 * A settled call whose process is CLOSED gets no row; an UPDATE that matched nothing writes
 * nothing. Delivered at least once; the process keeps the first PhoneCallEnded (by callId). The
 * per-workflow lock is taken before the row's seq is drawn (db/outbox.ts, signalRowsFrom) and
 * held until the statement commits; the dispatchers are woken after the commit.
 *
 * Built once per client and shape, then only bound: drizzle spends about a millisecond of CPU
 * composing this statement (three CTEs, every column twice), more than PostgreSQL spends running
 * it. The shape is what changes the SQL text (the status sets, whether the message names our call
 * id or an endedReason); every value is a placeholder.
 */
async function settle(
  db: Db,
  shape: string,
  build: () => { set: PgUpdateSetSource<typeof phoneCalls>; where: SQL },
  values: Record<string, unknown>,
): Promise<PhoneCallRow | null> {
  const statement = builtOnce(db, shape, () => {
    const { set, where } = build();
    const settled = db.$with('settled').as(db.update(phoneCalls).set(set).where(where).returning());
    // PhoneCallEnded once, for the final attempt: an attempt the redial policy follows with
    // another tells the process PhoneCallAttemptEnded instead (the same rule as the webhook trigger).
    const redials = sql`phone_call_redials(${settled.status}, ${settled.endedReason}, ${settled.attempt}, ${settled.redial})`;
    const signalled = (name: string, signal: typeof PhoneCallProcess.signals.ended, rule: SQL) =>
      signalRowsFrom(name, signal, {
        from: settled,
        where: and(inArray(settled.status, ['ENDED', 'FAILED']), ne(settled.processStatus, 'CLOSED'), rule)!,
        capability: PhoneCallProcess.capability,
        tenantId: settled.tenantId,
        businessKey: settled.businessKey,
        payload: { callId: settled.id, status: settled.status, endedReason: settled.endedReason },
      });
    const ended = signalled('phone_call_ended', PhoneCallProcess.signals.ended, sql`not ${redials}`);
    const attemptEnded = signalled('phone_call_attempt_ended', PhoneCallProcess.signals.attemptEnded, redials);
    return db
      .with(settled, ...ended.ctes, ...attemptEnded.ctes)
      .select({ ...settled._.selectedFields, announced: sql<boolean>`(${ended.written} or ${attemptEnded.written})`.mapWith(Boolean) })
      .from(settled)
      .prepare('settle_phone_call');
  });
  const [row] = await statement.execute({ ...values, ...signalRowValues() });
  if (!row) return null;
  const { announced, ...call } = row;
  if (announced) wakeDispatchers(db, PhoneCallProcess.capability);
  return call;
}

/** Statements built once per client (db) and shape. Shapes are few: they follow from the domain's status rules. */
const built = new WeakMap<Db, Map<string, unknown>>();

function builtOnce<T>(db: Db, shape: string, build: () => T): T {
  let byShape = built.get(db);
  if (!byShape) built.set(db, (byShape = new Map()));
  if (!byShape.has(shape)) byShape.set(shape, build());
  return byShape.get(shape) as T;
}

export interface CallListQuery {
  status?: PhoneCallRow['status'];
  direction?: PhoneCallRow['direction'];
  limit: number;
  after?: KeysetPosition;
}

/** Newest first, keyset-paged on (createdAt, id) so concurrent inserts never shift a page. */
export async function listPhoneCalls(db: DbOrTx, tenantId: string, q: CallListQuery) {
  const where: SQL[] = [eq(phoneCalls.tenantId, tenantId)];
  if (q.status) where.push(eq(phoneCalls.status, q.status));
  if (q.direction) where.push(eq(phoneCalls.direction, q.direction));
  if (q.after) where.push(afterKeyset(phoneCalls, q.after, 'desc'));
  return db
    .select({
      ...getTableColumns(phoneCalls),
      cursorAt: keysetTimestamp(phoneCalls.createdAt),
    })
    .from(phoneCalls)
    .where(and(...where))
    .orderBy(desc(phoneCalls.createdAt), desc(phoneCalls.id))
    .limit(q.limit);
}
