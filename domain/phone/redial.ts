// The redial policy of an outbound call and the rule that decides whether an ended attempt is
// followed by another. The same rule is the SQL function phone_call_redials (migration 0028),
// which the settling statement and the phone.call.ended webhook trigger ask; a unit test holds
// the two together.
import { z } from 'zod';

export const REDIAL_OUTCOMES = ['no-answer', 'busy', 'failed'] as const;
export type RedialOutcome = (typeof REDIAL_OUTCOMES)[number];

export const MAX_REDIAL_ATTEMPTS = 10;
/** One week: a backoff longer than that is a new call, not a redial. */
export const MAX_BACKOFF_MINUTES = 10_080;

export const redialPolicySchema = z
  .object({
    maxAttempts: z.number().int().min(1).max(MAX_REDIAL_ATTEMPTS),
    backoffMinutes: z.number().min(0).max(MAX_BACKOFF_MINUTES),
    on: z.array(z.enum(REDIAL_OUTCOMES)).min(1).max(REDIAL_OUTCOMES.length),
  })
  .strict();
export type RedialPolicy = z.output<typeof redialPolicySchema>;

/** endedReasons that say nobody answered (SIP 408/480: "callee unavailable" in the provider's guide). */
export const NO_ANSWER_REASONS: readonly string[] = [
  'customer-did-not-answer',
  'call.forwarding.operator-no-answer',
  'call.in-progress.error-providerfault-outbound-sip-408-request-timeout',
  'call.in-progress.error-providerfault-outbound-sip-480-temporarily-unavailable',
];
export const BUSY_REASONS: readonly string[] = ['customer-busy', 'call.forwarding.operator-busy'];

/** The outcome of an ended attempt as the policy names it; null when the policy cannot name it (answered, voicemail...). */
export function redialOutcomeOf(status: string, endedReason: string | null): RedialOutcome | null {
  if (status === 'FAILED') return 'failed';
  if (status !== 'ENDED' || endedReason === null) return null;
  if (NO_ANSWER_REASONS.includes(endedReason)) return 'no-answer';
  if (BUSY_REASONS.includes(endedReason)) return 'busy';
  return null;
}

/** Whether attempt `attempt` that ended so is followed by another under `policy`. */
export function redialFollows(call: { status: string; endedReason: string | null; attempt: number; redial: RedialPolicy | null }): boolean {
  if (!call.redial || call.attempt >= call.redial.maxAttempts) return false;
  const outcome = redialOutcomeOf(call.status, call.endedReason);
  return outcome !== null && call.redial.on.includes(outcome);
}
