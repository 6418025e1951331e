// The do-not-call list and the calling policies of assistants and numbers (migration 0028).
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { phoneCallingPolicies, phoneDoNotCall } from '../schema/phone';

export type DoNotCallRow = typeof phoneDoNotCall.$inferSelect;
export type CallingPolicyRow = typeof phoneCallingPolicies.$inferSelect;
type PolicySubject = { tenantId: string; subjectKind: CallingPolicyRow['subjectKind']; subjectId: string };

/** Adds the number; an entry that exists already is kept as it was (its first source and time). */
export async function insertDoNotCall(db: DbOrTx, p: Omit<typeof phoneDoNotCall.$inferInsert, 'createdAt'>) {
  const rows = await db.insert(phoneDoNotCall).values(p).onConflictDoNothing().returning();
  if (rows[0]) return { entry: rows[0], created: true };
  return { entry: (await getDoNotCall(db, p))!, created: false };
}

export async function getDoNotCall(db: DbOrTx, p: { tenantId: string; number: string }) {
  const rows = await db
    .select()
    .from(phoneDoNotCall)
    .where(and(eq(phoneDoNotCall.tenantId, p.tenantId), eq(phoneDoNotCall.number, p.number)));
  return rows[0] ?? null;
}

export async function deleteDoNotCall(db: DbOrTx, p: { tenantId: string; number: string }) {
  const rows = await db
    .delete(phoneDoNotCall)
    .where(and(eq(phoneDoNotCall.tenantId, p.tenantId), eq(phoneDoNotCall.number, p.number)))
    .returning({ number: phoneDoNotCall.number });
  return rows.length > 0;
}

/** In number order, keyset-paged on the number (the key): entries added meanwhile never shift a page. */
export async function listDoNotCall(db: DbOrTx, p: { tenantId: string; limit: number; after?: string | undefined }) {
  return db
    .select()
    .from(phoneDoNotCall)
    .where(and(eq(phoneDoNotCall.tenantId, p.tenantId), p.after === undefined ? undefined : gt(phoneDoNotCall.number, p.after)))
    .orderBy(asc(phoneDoNotCall.number))
    .limit(p.limit);
}

export async function getCallingPolicy(db: DbOrTx, p: PolicySubject) {
  const rows = await db
    .select()
    .from(phoneCallingPolicies)
    .where(
      and(
        eq(phoneCallingPolicies.tenantId, p.tenantId),
        eq(phoneCallingPolicies.subjectKind, p.subjectKind),
        eq(phoneCallingPolicies.subjectId, p.subjectId),
      ),
    );
  return rows[0] ?? null;
}

export async function putCallingPolicy(db: DbOrTx, p: PolicySubject & Pick<CallingPolicyRow, 'callingCalendarKey' | 'redial' | 'updatedBy'>) {
  const { tenantId, subjectKind, subjectId, ...values } = p;
  const rows = await db
    .insert(phoneCallingPolicies)
    .values(p)
    .onConflictDoUpdate({
      target: [phoneCallingPolicies.tenantId, phoneCallingPolicies.subjectKind, phoneCallingPolicies.subjectId],
      set: { ...values, updatedAt: sql`now()` },
    })
    .returning();
  return rows[0]!;
}

export async function deleteCallingPolicy(db: DbOrTx, p: PolicySubject) {
  const rows = await db
    .delete(phoneCallingPolicies)
    .where(
      and(
        eq(phoneCallingPolicies.tenantId, p.tenantId),
        eq(phoneCallingPolicies.subjectKind, p.subjectKind),
        eq(phoneCallingPolicies.subjectId, p.subjectId),
      ),
    )
    .returning({ subjectId: phoneCallingPolicies.subjectId });
  return rows.length > 0;
}
