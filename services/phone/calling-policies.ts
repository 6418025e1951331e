// Calling policies: an assistant (the provider's assistant id) or a registered number (our id)
// may name a process calendar whose open hours are the calling window, and an assistant a
// redial policy. Placement reads them through resolveCallingRules.
import type { DbOrTx } from '../../db/client';
import { getPhoneNumber, findPhoneNumberByProviderId } from '../../db/queries/phone-numbers';
import { deleteCallingPolicy, getCallingPolicy, putCallingPolicy, type CallingPolicyRow } from '../../db/queries/phone-policies';
import { getAssociation } from '../../db/queries/process-calendars';
import { AppError, notFound } from '../../domain/errors';
import type { RedialPolicy } from '../../domain/phone/redial';

export interface PolicySubject {
  tenantId: string;
  subjectKind: CallingPolicyRow['subjectKind'];
  subjectId: string;
}

export interface CallingPolicyInput {
  callingCalendarKey?: string | null | undefined;
  redial?: RedialPolicy | null | undefined;
}

/** A number's policy is addressed by our number id: another tenant's (or an unknown) number is 404. */
async function requireSubject(db: DbOrTx, s: PolicySubject) {
  if (s.subjectKind !== 'phone-number') return;
  const number = await getPhoneNumber(db, s.tenantId, s.subjectId);
  if (!number) throw notFound('The phone number', 'phone-number-not-found');
}

export async function requireProcessCalendar(db: DbOrTx, p: { tenantId: string; key: string }) {
  const association = await getAssociation(db, { tenantId: p.tenantId, processDefinitionKey: p.key });
  if (!association) throw new AppError('unknown-process-calendar', `The tenant has no process calendar association ${p.key}`);
  return association;
}

/** PUT: replaces the subject's policy (omitted fields are cleared). */
export async function setCallingPolicy(db: DbOrTx, p: PolicySubject & { policy: CallingPolicyInput; updatedBy: string }) {
  await requireSubject(db, p);
  if (p.policy.callingCalendarKey) await requireProcessCalendar(db, { tenantId: p.tenantId, key: p.policy.callingCalendarKey });
  return putCallingPolicy(db, {
    tenantId: p.tenantId,
    subjectKind: p.subjectKind,
    subjectId: p.subjectId,
    callingCalendarKey: p.policy.callingCalendarKey ?? null,
    redial: p.policy.redial ?? null,
    updatedBy: p.updatedBy,
  });
}

export async function readCallingPolicy(db: DbOrTx, p: PolicySubject) {
  await requireSubject(db, p);
  const row = await getCallingPolicy(db, p);
  if (!row) throw notFound('The calling policy', 'calling-policy-not-found');
  return row;
}

export async function removeCallingPolicy(db: DbOrTx, p: PolicySubject) {
  await requireSubject(db, p);
  if (!(await deleteCallingPolicy(db, p))) throw notFound('The calling policy', 'calling-policy-not-found');
}

/**
 * The rules a placement follows. Calling window: the assistant's calendar, else the number's
 * (the assistant speaks for the campaign; the number is the line's default). Redial: the
 * request's policy, else the assistant's.
 */
export async function resolveCallingRules(
  db: DbOrTx,
  p: { tenantId: string; assistantId: string; phoneNumberId: string; redial?: RedialPolicy | undefined },
): Promise<{ callingCalendarKey: string | null; redial: RedialPolicy | null }> {
  const number = await findPhoneNumberByProviderId(db, p.phoneNumberId);
  const [assistantPolicy, numberPolicy] = await Promise.all([
    getCallingPolicy(db, { tenantId: p.tenantId, subjectKind: 'assistant', subjectId: p.assistantId }),
    number && number.tenantId === p.tenantId
      ? getCallingPolicy(db, { tenantId: p.tenantId, subjectKind: 'phone-number', subjectId: number.id })
      : null,
  ]);
  return {
    callingCalendarKey: assistantPolicy?.callingCalendarKey ?? numberPolicy?.callingCalendarKey ?? null,
    redial: p.redial ?? assistantPolicy?.redial ?? null,
  };
}
