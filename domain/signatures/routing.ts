// Who signs when (issue 13 §2): sequential routing arms the lowest order group still unsigned
// (equal order values sign in parallel); parallel routing arms everyone at once.
import type { Routing } from './signing-schema';
import type { RecipientState } from './instance-states';

export interface RoutedRecipient {
  signerId: string;
  order: number;
  status: RecipientState;
}

/** The order groups, ascending. */
export const orderGroups = (recipients: readonly { order: number }[]) => [...new Set(recipients.map((r) => r.order))].sort((a, b) => a - b);

/** The status each new recipient starts in. */
export function initialStatus(routing: Routing, recipients: readonly { order: number }[], order: number): RecipientState {
  if (routing === 'parallel') return 'R_PENDING';
  return order === orderGroups(recipients)[0] ? 'R_PENDING' : 'R_WAITING';
}

/** The order group to arm now: the lowest with an unsigned recipient, when nobody below it is unsigned; null when all signed. */
export function groupToArm(routing: Routing, recipients: readonly RoutedRecipient[]): number | null {
  const unsigned = recipients.filter((r) => r.status !== 'R_SIGNED');
  if (unsigned.length === 0) return null;
  if (routing === 'parallel') return null;
  return Math.min(...unsigned.map((r) => r.order));
}

export const allSigned = (recipients: readonly RoutedRecipient[]) => recipients.every((r) => r.status === 'R_SIGNED');
