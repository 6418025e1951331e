import type { Db } from '../../db/client';
import { closeOutbox } from '../../db/outbox';

/**
 * A process reached its end: its outbox start row goes STARTED → CLOSED. False when there was no
 * such row to close (already closed, or started by another path).
 */
export async function closeProcessRow(db: Db, p: { capability: string; tenantId: string; businessKey: string }): Promise<boolean> {
  return closeOutbox(db, p.capability, p.tenantId, p.businessKey);
}
