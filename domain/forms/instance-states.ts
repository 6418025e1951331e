/**
 * Form instance states. DRAFT: created through the instance API, editable. SUBMITTED: data final,
 * the intake process queued. PROCESSED: the intake process wrote back. CANCELLED: withdrawn before
 * submission. SENT, OPENED, EXPIRED belong to outbound delivery (not built yet).
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
