// Form event subscriptions (docs/forms.md "Event rail"): which workflow types the correlator starts
// for each event of a form code and event type. Data of the tenant; another tenant's is not found.
import { and, asc, eq } from 'drizzle-orm';
import { isUniqueViolation } from '../../db/errors';
import { formEventSubscriptions } from '../../db/schema/form-events';
import { conflict, notFound } from '../../domain/errors';
import type { Actor, DefinitionDeps } from '../definitions/capability';
import { getDefinitionByCode } from '../definitions/read-definitions';
import { formDefinitionCapability as cap } from './form-definitions';

export type FormEventSubscriptionRow = typeof formEventSubscriptions.$inferSelect;

export interface NewSubscription {
  formCode: string;
  eventType: string;
  workflowType: string;
}

/** The form code must name one of the tenant's definitions (404 `definition-not-found` otherwise). */
export async function createSubscription(deps: DefinitionDeps, actor: Actor, input: NewSubscription): Promise<FormEventSubscriptionRow> {
  await getDefinitionByCode(deps, cap, actor, input.formCode);
  try {
    const [row] = await deps.db
      .insert(formEventSubscriptions)
      .values({ tenantId: actor.tenantId, ...input, createdBy: actor.userId })
      .returning();
    return row!;
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw conflict('form-event-subscription-exists', `${input.workflowType} already subscribes to ${input.eventType} events of ${input.formCode}`);
    }
    throw err;
  }
}

export async function listSubscriptions(deps: DefinitionDeps, actor: Actor, filter: { formCode?: string; eventType?: string }) {
  const s = formEventSubscriptions;
  return deps.db
    .select()
    .from(s)
    .where(
      and(
        eq(s.tenantId, actor.tenantId),
        filter.formCode ? eq(s.formCode, filter.formCode) : undefined,
        filter.eventType ? eq(s.eventType, filter.eventType) : undefined,
      ),
    )
    .orderBy(asc(s.formCode), asc(s.eventType), asc(s.createdAt), asc(s.id));
}

export async function deleteSubscription(deps: DefinitionDeps, actor: Actor, id: string): Promise<void> {
  const s = formEventSubscriptions;
  const rows = await deps.db
    .delete(s)
    .where(and(eq(s.tenantId, actor.tenantId), eq(s.id, id)))
    .returning({ id: s.id });
  if (rows.length === 0) throw notFound('Form event subscription', 'form-event-subscription-not-found');
}
