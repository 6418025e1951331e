import { closeProcessRow } from '../services/platform/process-rows';
import type { CoreActivityDeps } from './deps';

export function createOutboxActivities({ db }: CoreActivityDeps) {
  return {
    /** A process reached its end: its outbox row goes STARTED → CLOSED. */
    async closeOutboxRow(capability: string, tenantId: string, businessKey: string): Promise<boolean> {
      return closeProcessRow(db, { capability, tenantId, businessKey });
    },
  };
}
