// The attempts of one outbound call (its chain: the first call and its redials, business key =
// the first call's id) and the states before a provider request: SCHEDULED, CANCELLED, REFUSED.
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { isUniqueViolation } from '../errors';
import { phoneCalls } from '../schema/phone';
import type { NewPhoneCall } from './phone';

/** The chain's attempts, first first. */
export async function listChainCalls(db: DbOrTx, p: { tenantId: string; firstCallId: string }) {
  return db
    .select()
    .from(phoneCalls)
    .where(and(eq(phoneCalls.tenantId, p.tenantId), eq(phoneCalls.businessKey, p.firstCallId)))
    .orderBy(asc(phoneCalls.attempt));
}

/** A redial attempt; null when the attempt exists already (a retried activity), which is then read back. */
export async function insertAttemptOnce(db: DbOrTx, values: NewPhoneCall & { firstCallId: string; attempt: number }) {
  try {
    const rows = await db.insert(phoneCalls).values(values).returning();
    return rows[0]!;
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const rows = await db
      .select()
      .from(phoneCalls)
      .where(and(eq(phoneCalls.firstCallId, values.firstCallId), eq(phoneCalls.attempt, values.attempt)));
    return rows[0]!;
  }
}

/** Cancels the SCHEDULED calls of the chain `callId` belongs to; the rows it cancelled. */
export async function cancelScheduledInChain(db: DbOrTx, p: { tenantId: string; callId: string }) {
  return db
    .update(phoneCalls)
    .set({ status: 'CANCELLED', endedAt: sql`now()`, version: sql`${phoneCalls.version} + 1`, updatedAt: sql`now()` })
    .where(
      and(
        eq(phoneCalls.tenantId, p.tenantId),
        eq(phoneCalls.status, 'SCHEDULED'),
        sql`${phoneCalls.businessKey} = (select c.business_key from phone_calls c where c.tenant_id = ${p.tenantId} and c.id = ${p.callId})`,
      ),
    )
    .returning();
}

/** The process of the chain ended: every attempt's processStatus CLOSED. */
export async function closeChainCalls(db: DbOrTx, p: { tenantId: string; firstCallId: string }) {
  await db
    .update(phoneCalls)
    .set({ processStatus: 'CLOSED', version: sql`${phoneCalls.version} + 1`, updatedAt: sql`now()` })
    .where(and(eq(phoneCalls.tenantId, p.tenantId), eq(phoneCalls.businessKey, p.firstCallId), ne(phoneCalls.processStatus, 'CLOSED')));
}
