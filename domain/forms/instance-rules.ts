/**
 * Which instance states allow which step. API-created instances start as DRAFT (editable until
 * submitted); a public embed submit creates one SUBMITTED at once. Outbound instances (SENT,
 * OPENED) are editable and submittable by their recipient, and by the tenant's instance API.
 */
import type { FormInstanceState } from './instance-states';

const OPEN: readonly FormInstanceState[] = ['DRAFT', 'SENT', 'OPENED'];

export const isEditable = (s: FormInstanceState) => OPEN.includes(s);
export const isSubmittable = (s: FormInstanceState) => OPEN.includes(s);
export const isCancellable = (s: FormInstanceState) => OPEN.includes(s);

/** How a definition's `submissionHandling` reads: store only, start a workflow, or unknown. */
export type SubmissionHandling = { kind: 'store' } | { kind: 'workflow'; workflowType: string } | { kind: 'unknown'; raw: string };

const WORKFLOW_TYPE = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;

export function parseSubmissionHandling(raw: string | null): SubmissionHandling {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'store') return { kind: 'store' };
  if (value.startsWith('workflow:')) {
    const workflowType = value.slice('workflow:'.length);
    if (WORKFLOW_TYPE.test(workflowType)) return { kind: 'workflow', workflowType };
  }
  return { kind: 'unknown', raw: value };
}
