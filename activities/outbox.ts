import { closeOutbox } from '../db/outbox';
import type { ActivityDeps } from './deps';

export function createOutboxActivities({ db }: ActivityDeps) {
  return {
    /** A process reached its end: its outbox row goes STARTED → CLOSED. */
    async closeOutboxRow(capability: string, tenantId: string, businessKey: string): Promise<boolean> {
      return closeOutbox(db, capability, tenantId, businessKey);
    },
  };
}
