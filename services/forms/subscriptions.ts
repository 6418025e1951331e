// Form event subscriptions (docs/forms.md "Event rail"): which workflow types the correlator starts
// for each event of a form code and event type. Data of the tenant; another tenant's is not found.
import { isUniqueViolation } from '../../db/errors';
import {
  deleteFormEventSubscription,
  insertFormEventSubscription,
  listFormEventSubscriptions,
  type FormEventSubscriptionRow,
} from '../../db/queries/form-events';
import { conflict, notFound } from '../../domain/errors';
import type { Actor, DefinitionDeps } from '../definitions/capability';
import { getDefinitionByCode } from '../definitions/read-definitions';
import { formDefinitionCapability as cap } from './form-definitions';

export interface NewSubscription {
  formCode: string;
  eventType: string;
  workflowType: string;
}

/** The form code must name one of the tenant's definitions (404 `definition-not-found` otherwise). */
export async function createSubscription(deps: DefinitionDeps, actor: Actor, input: NewSubscription): Promise<FormEventSubscriptionRow> {
  await getDefinitionByCode(deps, cap, actor, input.formCode);
  try {
    return await insertFormEventSubscription(deps.db, { tenantId: actor.tenantId, ...input, createdBy: actor.userId });
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw conflict('form-event-subscription-exists', `${input.workflowType} already subscribes to ${input.eventType} events of ${input.formCode}`);
    }
    throw err;
  }
}

export async function listSubscriptions(deps: DefinitionDeps, actor: Actor, filter: { formCode?: string; eventType?: string }) {
  return listFormEventSubscriptions(deps.db, { tenantId: actor.tenantId, formCode: filter.formCode, eventType: filter.eventType });
}

export async function deleteSubscription(deps: DefinitionDeps, actor: Actor, id: string): Promise<void> {
  const deleted = await deleteFormEventSubscription(deps.db, { tenantId: actor.tenantId, id });
  if (!deleted) throw notFound('Form event subscription', 'form-event-subscription-not-found');
}
