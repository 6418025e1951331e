/**
 * ENDED vs FAILED from the provider's `endedReason`.
 *
 * The provider documents several hundred reason codes and adds new ones often
 * (one per LLM/voice/transcriber vendor and HTTP status), so the rules below work on
 * the code's structure (its prefixes and fault markers) rather than on an exhaustive
 * list. Source: the provider's "Call ended reasons" guide and the CallEndedReason enum
 * of its published TypeScript SDK.
 */
export type CallOutcome = 'ENDED' | 'FAILED';

interface Rule {
  readonly id: string;
  readonly test: (reason: string) => boolean;
}

const startsWith = (...prefixes: string[]) => (r: string) => prefixes.some((p) => r.startsWith(p));
const includes = (...parts: string[]) => (r: string) => parts.some((p) => r.includes(p));
const oneOf = (...codes: string[]) => {
  const set = new Set(codes);
  return (r: string) => set.has(r);
};

/**
 * Codes that look like errors but that the provider's guide describes as a normal
 * outcome: SIP 408/480 mean the callee was unavailable (the guide groups them with
 * busy/no-answer), and "did not receive customer audio" is listed under customer actions.
 * Checked before the fault rules.
 */
const NORMAL_END_EXCEPTIONS: readonly Rule[] = [
  {
    id: 'callee-unavailable',
    test: oneOf(
      'call.in-progress.error-providerfault-outbound-sip-408-request-timeout',
      'call.in-progress.error-providerfault-outbound-sip-480-temporarily-unavailable',
    ),
  },
  { id: 'customer-silent', test: oneOf('call.in-progress.error-assistant-did-not-receive-customer-audio') },
];

const FAULT_RULES: readonly Rule[] = [
  // Everything emitted while the call was being set up: billing, resources, validation.
  { id: 'call-start-error', test: startsWith('call.start.', 'call-start-error') },
  // LLM / voice / transcriber failures, legacy and current naming.
  { id: 'pipeline-error', test: startsWith('pipeline-error-', 'pipeline-no-available-') },
  // Phase-scoped errors: call.in-progress.error-*, call.ringing.error-*.
  { id: 'phase-error', test: includes('.error-') },
  { id: 'fault-marker', test: includes('vapifault', 'providerfault', 'configfault') },
  // The number has no usable assistant: lookup failed or our assistant-request answer was unusable.
  { id: 'assistant-unavailable', test: startsWith('assistant-request-', 'assistant-not-', 'assistant-join-timed-out') },
  { id: 'transport-fault', test: startsWith('phone-call-provider-', 'sip-outbound-') },
  { id: 'carrier-failed-to-connect', test: includes('failed-to-connect') },
  {
    id: 'carrier-or-platform-fault',
    test: oneOf('vonage-rejected', 'twilio-reported-customer-misdialed', 'worker-shutdown', 'no-server-available', 'license-check-failed'),
  },
  // Generic error codes (assistant-error, db-error, unknown-error) and "...-provider-fault".
  { id: 'error-suffix', test: (r) => r.endsWith('-error') || r.endsWith('-fault') },
];

export interface EndedReasonClassification {
  readonly outcome: CallOutcome;
  /** Which rule decided; 'normal-end' when no fault rule matched. */
  readonly rule: string;
}

export function explainEndedReason(endedReason: string | null | undefined): EndedReasonClassification {
  const reason = typeof endedReason === 'string' ? endedReason.trim().toLowerCase() : '';
  if (reason === '') return { outcome: 'ENDED', rule: 'no-reason' };
  for (const rule of NORMAL_END_EXCEPTIONS) if (rule.test(reason)) return { outcome: 'ENDED', rule: rule.id };
  for (const rule of FAULT_RULES) if (rule.test(reason)) return { outcome: 'FAILED', rule: rule.id };
  return { outcome: 'ENDED', rule: 'normal-end' };
}

export function classifyEndedReason(endedReason: string | null | undefined): CallOutcome {
  return explainEndedReason(endedReason).outcome;
}

/** The README quotes this; keep it in step with the rules above. */
export const ENDED_REASON_CLASSIFICATION = [
  'A call that ends is ENDED unless its endedReason says the call could not be placed or the provider, its pipeline or a carrier broke it; then it is FAILED.',
  'FAILED: every call-start error (`call.start.*`, `call-start-error-*`); every pipeline error (`pipeline-error-*`, `pipeline-no-available-*`);',
  'every phase-scoped error (`call.in-progress.error-*`, `call.ringing.error-*`) and any code marked `vapifault`, `providerfault` or `configfault`, except the three the provider\'s guide calls normal outcomes (below);',
  'no usable assistant (`assistant-request-*`, `assistant-not-*`, `assistant-join-timed-out`); transport faults (`phone-call-provider-*`, `sip-outbound-*`);',
  'carrier connection failures (`*failed-to-connect*`, `vonage-rejected`, `twilio-reported-customer-misdialed`); `worker-shutdown`, `no-server-available`, `license-check-failed`;',
  'and any code ending in `-error` or `-fault` (`assistant-error`, `db-error`, `unknown-error`).',
  'ENDED: everything else, notably `customer-ended-call`, `assistant-ended-call*`, `assistant-forwarded-call`, `silence-timed-out`, `exceeded-max-duration`, `voicemail`, `manually-canceled`, and carrier completions.',
  'A busy line or an unanswered call (`customer-busy`, `customer-did-not-answer`, SIP 408/480 which the provider documents as "callee unavailable", `call.forwarding.operator-busy`/`no-answer`)',
  'is a normal end of an attempt, not a platform fault, so it is ENDED; the endedReason stored on the call tells them apart.',
  'So is `call.in-progress.error-assistant-did-not-receive-customer-audio`, which the guide lists under customer actions.',
  'A missing endedReason is ENDED. Rules match on structure, so codes the provider adds later fall into the right class.',
].join(' ');
