/**
 * The administrative state moves of `PUT /api/form-instances/{id}/state` (docs/forms.md "Instance
 * operations"). SUBMITTED and PROCESSED are never entered or left here: they carry the intake
 * process (submit, retry-process, mark-processed do that). Every other move is refused.
 */
import type { FormInstanceState } from './instance-states';

export const ADMIN_MOVES: Readonly<Record<FormInstanceState, readonly FormInstanceState[]>> = {
  DRAFT: ['CANCELLED'],
  SENT: ['CANCELLED', 'EXPIRED'],
  OPENED: ['CANCELLED', 'EXPIRED'],
  CANCELLED: ['DRAFT'],
  EXPIRED: ['DRAFT'],
  SUBMITTED: [],
  PROCESSED: [],
};

export const mayMoveTo = (from: FormInstanceState, to: FormInstanceState) => ADMIN_MOVES[from].includes(to);
