import { and, asc, desc, eq, getTableColumns, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { isUniqueViolation } from '../errors';
import type { KeysetPosition } from '../../domain/keyset-cursor';
import { phoneCalls, phoneNumbers, phoneSettings } from '../schema/phone';
import { afterKeyset, keysetTimestamp } from './keyset';

export type PhoneCallRow = typeof phoneCalls.$inferSelect;
export type NewPhoneCall = typeof phoneCalls.$inferInsert;
export type PhoneNumberRow = typeof phoneNumbers.$inferSelect;
export type PhoneSettingsRow = typeof phoneSettings.$inferSelect;
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

function messageCall(key: MessageCallKey): SQL {
  const held = eq(phoneCalls.providerCallId, key.providerCallId);
  if (!key.platformCallId) return held;
  const overtaken = and(
    eq(phoneCalls.id, key.platformCallId),
    isNull(phoneCalls.providerCallId),
    eq(phoneCalls.status, 'QUEUED'),
    eq(phoneCalls.direction, 'OUTBOUND'),
    sql`not exists (select 1 from phone_calls held where held.provider_call_id = ${key.providerCallId})`,
  );
  return or(held, overtaken)!;
}

/**
 * One-statement status move for the webhook hot path: applies only while the call's status is
 * one of `from` (the caller derives that set from the domain's ordering rule), stamping
 * startedAt / endedAt / endedReason only where still empty. Null when nothing matched.
 */
export async function advancePhoneCallStatus(
  db: DbOrTx,
  key: MessageCallKey,
  move: { from: readonly PhoneCallRow['status'][]; to: PhoneCallRow['status']; at: Date; endedReason: string | null },
) {
  const terminal = move.to === 'ENDED' || move.to === 'FAILED';
  const at = sql`${move.at.toISOString()}::timestamptz`;
  const rows = await db
    .update(phoneCalls)
    .set({
      status: move.to,
      providerCallId: key.providerCallId,
      version: sql`${phoneCalls.version} + 1`,
      updatedAt: sql`now()`,
      ...(move.to === 'IN_PROGRESS' ? { startedAt: sql`coalesce(${phoneCalls.startedAt}, ${at})` } : {}),
      ...(terminal ? { endedAt: sql`coalesce(${phoneCalls.endedAt}, ${at})` } : {}),
      ...(terminal && move.endedReason ? { endedReason: sql`coalesce(${phoneCalls.endedReason}, ${move.endedReason})` } : {}),
    })
    .where(and(messageCall(key), inArray(phoneCalls.status, [...move.from])))
    .returning();
  return rows[0] ?? null;
}

export interface PhoneCallReport
  extends Pick<NewPhoneCall, 'transcript' | 'recordingUrl' | 'summary' | 'cost' | 'analysis' | 'endPayload'> {
  /** The status move the report makes, as in advancePhoneCallStatus. */
  move: { from: readonly PhoneCallRow['status'][]; to: PhoneCallRow['status']; at: Date };
  endedReason: string | null;
  startedAt: Date | null;
  endedAt: Date | null;
}

/**
 * The end-of-call-report in one statement: stored only while the call holds no report (none
 * yet, or a reconciliation snapshot, which it replaces); the status moves while it is one of
 * `move.from`. The report's endedReason, startedAt and endedAt win over the stored ones; endedAt
 * falls back to `move.at`. Null when the call is untracked or its report is stored already.
 */
export async function storePhoneCallReport(db: DbOrTx, key: MessageCallKey, report: PhoneCallReport) {
  const { move, endedReason, startedAt, endedAt, ...stored } = report;
  const instant = (d: Date | null) => sql`${d?.toISOString() ?? null}::timestamptz`;
  const rows = await db
    .update(phoneCalls)
    .set({
      ...stored,
      providerCallId: key.providerCallId,
      endSource: 'webhook',
      status: sql`case when ${inArray(phoneCalls.status, [...move.from])} then ${move.to} else ${phoneCalls.status} end`,
      endedReason: sql`coalesce(${endedReason}, ${phoneCalls.endedReason})`,
      startedAt: sql`coalesce(${instant(startedAt)}, ${phoneCalls.startedAt})`,
      endedAt: sql`coalesce(${instant(endedAt)}, ${phoneCalls.endedAt}, ${instant(move.at)})`,
      version: sql`${phoneCalls.version} + 1`,
      updatedAt: sql`now()`,
    })
    .where(and(messageCall(key), sql`${phoneCalls.endSource} is distinct from 'webhook'`))
    .returning();
  return rows[0] ?? null;
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

// ---- numbers

/** A number created at the provider and recorded: the only kind served and routed. */
export type RegisteredNumberRow = PhoneNumberRow & { providerNumberId: string; registration: 'REGISTERED' };
const registered = eq(phoneNumbers.registration, 'REGISTERED');
const asRegistered = (rows: PhoneNumberRow[]) => rows as RegisteredNumberRow[];

/** Reserves a number's row (PENDING, no provider id) before the provider is asked. */
export async function reservePhoneNumber(db: DbOrTx, values: Omit<typeof phoneNumbers.$inferInsert, 'registration' | 'providerNumberId'>) {
  const rows = await db.insert(phoneNumbers).values({ ...values, registration: 'PENDING' }).returning();
  return rows[0]!;
}

/** Records what the provider created on the reserved row. */
export async function registerPhoneNumber(
  db: DbOrTx,
  id: string,
  values: Pick<PhoneNumberRow, 'providerNumberId' | 'number' | 'name' | 'assistantId' | 'providerStatus'>,
) {
  const rows = await db
    .update(phoneNumbers)
    .set({ ...values, registration: 'REGISTERED' })
    .where(and(eq(phoneNumbers.id, id), eq(phoneNumbers.registration, 'PENDING')))
    .returning();
  return asRegistered(rows)[0] ?? null;
}

/** Keeps a number the provider created that could not be recorded, with why. */
export async function markPhoneNumberFailed(db: DbOrTx, id: string, providerNumberId: string, error: string) {
  await db.update(phoneNumbers).set({ providerNumberId, registration: 'FAILED', registrationError: error }).where(eq(phoneNumbers.id, id));
}

/** Drops a reservation the provider refused (nothing exists at the provider). */
export async function releasePhoneNumber(db: DbOrTx, id: string) {
  await db.delete(phoneNumbers).where(and(eq(phoneNumbers.id, id), eq(phoneNumbers.registration, 'PENDING')));
}

export async function listPhoneNumbers(db: DbOrTx, tenantId: string) {
  return asRegistered(
    await db
      .select()
      .from(phoneNumbers)
      .where(and(eq(phoneNumbers.tenantId, tenantId), registered))
      .orderBy(asc(phoneNumbers.createdAt), asc(phoneNumbers.id)),
  );
}

export async function getPhoneNumber(db: DbOrTx, tenantId: string, id: string) {
  const rows = await db
    .select()
    .from(phoneNumbers)
    .where(and(eq(phoneNumbers.tenantId, tenantId), eq(phoneNumbers.id, id), registered));
  return asRegistered(rows)[0] ?? null;
}

/** Any tenant's number by provider id: inbound routing and the cross-tenant check on placement. */
export async function findPhoneNumberByProviderId(db: DbOrTx, providerNumberId: string) {
  const rows = await db.select().from(phoneNumbers).where(and(eq(phoneNumbers.providerNumberId, providerNumberId), registered));
  return asRegistered(rows)[0] ?? null;
}

/** Every registered row holding these digits (at most a few; several means the routing is ambiguous). */
export async function findPhoneNumbersByE164(db: DbOrTx, number: string) {
  return asRegistered(await db.select().from(phoneNumbers).where(and(eq(phoneNumbers.number, number), registered)).limit(2));
}

// ---- settings

export async function getPhoneSettings(db: DbOrTx, tenantId: string) {
  const rows = await db.select().from(phoneSettings).where(eq(phoneSettings.tenantId, tenantId));
  return rows[0] ?? null;
}

export interface PhoneDefaults {
  defaultAssistantId: string | null;
  defaultPhoneNumberId: string | null;
}

/** The first write only: null when the tenant's row exists already. */
export async function insertPhoneSettingsIfAbsent(db: DbOrTx, tenantId: string, defaults: PhoneDefaults, by: string) {
  const rows = await db
    .insert(phoneSettings)
    .values({ tenantId, ...defaults, updatedBy: by })
    .onConflictDoNothing({ target: phoneSettings.tenantId })
    .returning();
  return rows[0] ?? null;
}

/**
 * Creates the row on first write. With `expectedVersion` the write only lands on that version
 * (null: someone else wrote in between, or there is no row yet when a version was expected).
 */
export async function writePhoneSettings(
  db: DbOrTx,
  { tenantId, defaults, by, expectedVersion }: { tenantId: string; defaults: PhoneDefaults; by: string; expectedVersion?: number | undefined },
) {
  if (expectedVersion === undefined) {
    const rows = await db
      .insert(phoneSettings)
      .values({ tenantId, ...defaults, updatedBy: by })
      .onConflictDoUpdate({
        target: phoneSettings.tenantId,
        set: { ...defaults, updatedBy: by, updatedAt: sql`now()`, version: sql`${phoneSettings.version} + 1` },
      })
      .returning();
    return rows[0]!;
  }
  const rows = await db
    .update(phoneSettings)
    .set({ ...defaults, updatedBy: by, updatedAt: sql`now()`, version: sql`${phoneSettings.version} + 1` })
    .where(and(eq(phoneSettings.tenantId, tenantId), eq(phoneSettings.version, expectedVersion)))
    .returning();
  return rows[0] ?? null;
}
