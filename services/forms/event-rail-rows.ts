// The forms event rail as the rest of the platform sees it: the channel its rows are announced
// on, and the per-instance view.
import type { DbOrTx } from '../../db/client';
import { listInstanceEvents } from '../../db/queries/form-events';

/** NOTIFY channel the form_instances triggers wake correlators on. */
export const FORM_EVENT_CHANNEL = 'form_event_ready';

/** The instance's events, oldest first (its API view). */
export function eventsOfInstance(db: DbOrTx, tenantId: string, instanceId: string) {
  return listInstanceEvents(db, { tenantId, instanceId });
}
