/**
 * Form instance states. DRAFT: created through the instance API, editable. SENT: an outbound form
 * sent to its recipient (link e-mailed). OPENED: the recipient verified a one-time code.
 * SUBMITTED: data final, the intake process queued. PROCESSED: the intake process wrote back.
 * CANCELLED: withdrawn before submission. EXPIRED: an open instance (DRAFT, SENT, OPENED) whose
 * expiresAt passed, moved by the expiry sweep (recipient routes treat it as expired at once).
 */
export const FORM_INSTANCE_STATES = ['DRAFT', 'SENT', 'OPENED', 'SUBMITTED', 'PROCESSED', 'CANCELLED', 'EXPIRED'] as const;
export type FormInstanceState = (typeof FORM_INSTANCE_STATES)[number];

/** The spec's context map: links back to the process and carries processStartStatus. */
export interface FormInstanceContext {
  processInstanceId?: string | null;
  taskId?: string | null;
  businessKey?: string | null;
  processStartStatus?: 'QUEUED' | 'STARTED' | 'PROCESSED' | 'FAILED';
  processRef?: string | null;
  [key: string]: unknown;
}
