import { describe, expect, it } from 'vitest';
import {
  classifyEndedReason,
  ENDED_REASON_CLASSIFICATION,
  explainEndedReason,
} from '../../../domain/phone/ended-reason.js';

/** Codes from the provider's CallEndedReason enum and call-ended-reason guide. */
const FAILED_REASONS: Array<[string, string]> = [
  ['call-start-error-neither-assistant-nor-server-set', 'call-start-error'],
  ['call.start.error-get-assistant', 'call-start-error'],
  ['call.start.error-get-phone-number', 'call-start-error'],
  ['call.start.error-vapifault-get-org', 'call-start-error'],
  ['call.start.error-subscription-frozen', 'call-start-error'],
  ['call.start.error-subscription-insufficient-credits', 'call-start-error'],
  ['call.start.error-subscription-concurrency-limit-reached', 'call-start-error'],
  ['call.start.error-fraud-check-failed', 'call-start-error'],
  ['call.start.error-vapi-number-outbound-daily-limit', 'call-start-error'],
  ['call.start.assistant-version-error-validation', 'call-start-error'],
  ['pipeline-error-openai-llm-failed', 'pipeline-error'],
  ['pipeline-error-openai-429-exceeded-quota', 'pipeline-error'],
  ['pipeline-error-eleven-labs-voice-not-found', 'pipeline-error'],
  ['pipeline-error-deepgram-transcriber-failed', 'pipeline-error'],
  ['pipeline-error-tavus-video-failed', 'pipeline-error'],
  ['pipeline-no-available-llm-model', 'pipeline-error'],
  ['call.in-progress.error-vapifault-worker-died', 'phase-error'],
  ['call.in-progress.error-providerfault-openai-500-server-error', 'phase-error'],
  ['call.in-progress.error-vapifault-transport-never-connected', 'phase-error'],
  ['call.in-progress.error-pipeline-no-available-llm-model', 'phase-error'],
  ['call.in-progress.error-configfault-model-unsupported-in-squad', 'phase-error'],
  ['call.in-progress.error-transfer-failed', 'phase-error'],
  ['call.in-progress.error-warm-transfer-max-duration', 'phase-error'],
  ['call.in-progress.error-sip-outbound-call-failed-to-connect', 'phase-error'],
  ['call.in-progress.error-providerfault-outbound-sip-503-service-unavailable', 'phase-error'],
  ['call.ringing.error-sip-inbound-call-failed-to-connect', 'phase-error'],
  ['assistant-request-failed', 'assistant-unavailable'],
  ['assistant-request-returned-error', 'assistant-unavailable'],
  ['assistant-request-returned-invalid-assistant', 'assistant-unavailable'],
  ['assistant-not-found', 'assistant-unavailable'],
  ['assistant-not-valid', 'assistant-unavailable'],
  ['assistant-join-timed-out', 'assistant-unavailable'],
  ['phone-call-provider-closed-websocket', 'transport-fault'],
  ['phone-call-provider-bypass-enabled-but-no-call-received', 'transport-fault'],
  ['sip-outbound-unallocated-number', 'transport-fault'],
  ['twilio-failed-to-connect-call', 'carrier-failed-to-connect'],
  ['vonage-failed-to-connect-call', 'carrier-failed-to-connect'],
  ['vonage-rejected', 'carrier-or-platform-fault'],
  ['twilio-reported-customer-misdialed', 'carrier-or-platform-fault'],
  ['worker-shutdown', 'carrier-or-platform-fault'],
  ['no-server-available', 'carrier-or-platform-fault'],
  ['license-check-failed', 'carrier-or-platform-fault'],
  ['assistant-error', 'error-suffix'],
  ['db-error', 'error-suffix'],
  ['unknown-error', 'error-suffix'],
  ['some-future-provider-fault', 'error-suffix'],
];

const ENDED_REASONS: Array<[string, string]> = [
  ['customer-ended-call', 'normal-end'],
  ['customer-ended-call-during-transfer', 'normal-end'],
  ['customer-busy', 'normal-end'],
  ['customer-did-not-answer', 'normal-end'],
  ['customer-did-not-give-microphone-permission', 'normal-end'],
  ['assistant-ended-call', 'normal-end'],
  ['assistant-ended-call-after-message-spoken', 'normal-end'],
  ['assistant-ended-call-with-hangup-task', 'normal-end'],
  ['assistant-said-end-call-phrase', 'normal-end'],
  ['assistant-forwarded-call', 'normal-end'],
  ['silence-timed-out', 'normal-end'],
  ['exceeded-max-duration', 'normal-end'],
  ['voicemail', 'normal-end'],
  ['manually-canceled', 'normal-end'],
  ['scheduled-call-deleted', 'normal-end'],
  ['call-deleted', 'normal-end'],
  ['call.forwarding.operator-busy', 'normal-end'],
  ['call.forwarding.no-answer', 'normal-end'],
  ['call.ringing.hook-executed-say', 'normal-end'],
  ['call.ending.hook-executed-transfer', 'normal-end'],
  ['call.ringing.sip-inbound-caller-hungup-before-call-connect', 'normal-end'],
  ['call.in-progress.twilio-completed-call', 'normal-end'],
  ['call.in-progress.sip-completed-call', 'normal-end'],
  ['vonage-completed', 'normal-end'],
  ['vonage-disconnected', 'normal-end'],
  ['call.in-progress.error-providerfault-outbound-sip-408-request-timeout', 'callee-unavailable'],
  ['call.in-progress.error-providerfault-outbound-sip-480-temporarily-unavailable', 'callee-unavailable'],
  ['call.in-progress.error-assistant-did-not-receive-customer-audio', 'customer-silent'],
  ['a-reason-we-have-never-seen', 'normal-end'],
];

describe('endedReason classification: FAILED for start errors and provider/pipeline faults', () => {
  it.each(FAILED_REASONS)('%s → FAILED (rule %s)', (reason, rule) => {
    expect(explainEndedReason(reason)).toEqual({ outcome: 'FAILED', rule });
    expect(classifyEndedReason(reason)).toBe('FAILED');
  });
});

describe('endedReason classification: ENDED for normal ends, busy and no-answer included', () => {
  it.each(ENDED_REASONS)('%s → ENDED (rule %s)', (reason, rule) => {
    expect(explainEndedReason(reason)).toEqual({ outcome: 'ENDED', rule });
    expect(classifyEndedReason(reason)).toBe('ENDED');
  });
});

describe('endedReason classification: odd input', () => {
  it.each([undefined, null, '', '   '])('a missing reason %j is ENDED', (reason) => {
    expect(explainEndedReason(reason)).toEqual({ outcome: 'ENDED', rule: 'no-reason' });
  });

  it('ignores case and surrounding whitespace', () => {
    expect(classifyEndedReason('  Pipeline-Error-OpenAI-LLM-Failed ')).toBe('FAILED');
    expect(classifyEndedReason('CUSTOMER-BUSY')).toBe('ENDED');
  });

  it('publishes a README description that names the busy/no-answer decision', () => {
    expect(ENDED_REASON_CLASSIFICATION).toContain('customer-busy');
    expect(ENDED_REASON_CLASSIFICATION).toContain('call.start.*');
    expect(ENDED_REASON_CLASSIFICATION).not.toMatch(/\n/);
  });
});
