import { describe, expect, it } from 'vitest';
import {
  CALL_STATUSES,
  isCallStatus,
  isTerminal,
  mapProviderStatus,
  nextStatusFromEndOfCallReport,
  nextStatusFromStatusUpdate,
  type CallStatus,
} from '../../../domain/phone/call-status.js';

describe('phone call status: provider status mapping (spec States: status-update)', () => {
  it.each([
    ['scheduled', 'QUEUED'],
    ['queued', 'QUEUED'],
    ['ringing', 'RINGING'],
    ['in-progress', 'IN_PROGRESS'],
    ['forwarding', 'IN_PROGRESS'],
    ['ended', 'ENDED'],
  ] as const)('maps %s to %s', (provider, ours) => {
    expect(mapProviderStatus(provider)).toBe(ours);
  });

  it.each(['not-found', 'deletion-failed', 'completed', 'ENDED', 'In-Progress', '', 'constructor', '__proto__'])(
    'maps unknown value %j to null',
    (value) => {
      expect(mapProviderStatus(value)).toBeNull();
    },
  );

  it.each([undefined, null, 42, {}, ['ended']])('maps non-string %j to null', (value) => {
    expect(mapProviderStatus(value)).toBeNull();
  });
});

describe('phone call status: terminal statuses', () => {
  it('ENDED and FAILED are terminal, the others are not', () => {
    expect(CALL_STATUSES.filter(isTerminal)).toEqual(['ENDED', 'FAILED']);
  });

  it('recognises status values', () => {
    expect(isCallStatus('IN_PROGRESS')).toBe(true);
    expect(isCallStatus('in-progress')).toBe(false);
    expect(isCallStatus(undefined)).toBe(false);
  });
});

describe('phone call status: status-update transitions', () => {
  it.each([
    ['QUEUED', 'ringing', 'RINGING'],
    ['QUEUED', 'in-progress', 'IN_PROGRESS'],
    ['QUEUED', 'ended', 'ENDED'],
    ['RINGING', 'in-progress', 'IN_PROGRESS'],
    ['RINGING', 'forwarding', 'IN_PROGRESS'],
    ['RINGING', 'ended', 'ENDED'],
    ['IN_PROGRESS', 'ended', 'ENDED'],
  ] as const)('%s + %s → %s', (current, provider, next) => {
    expect(nextStatusFromStatusUpdate(current, provider)).toBe(next);
  });

  it.each(['ENDED', 'FAILED'] as const)('a terminal %s call is never reopened or changed', (current) => {
    for (const provider of ['scheduled', 'queued', 'ringing', 'in-progress', 'forwarding', 'ended']) {
      expect(nextStatusFromStatusUpdate(current, provider)).toBeNull();
      expect(nextStatusFromStatusUpdate(current, provider, 'pipeline-error-openai-llm-failed')).toBeNull();
    }
  });

  it.each([
    ['RINGING', 'queued'],
    ['RINGING', 'scheduled'],
    ['IN_PROGRESS', 'ringing'],
    ['IN_PROGRESS', 'queued'],
    ['IN_PROGRESS', 'forwarding'],
  ] as const)('never moves backwards or sideways: %s + late %s is ignored', (current, provider) => {
    expect(nextStatusFromStatusUpdate(current, provider)).toBeNull();
  });

  it('a redelivered status-update is a no-op', () => {
    expect(nextStatusFromStatusUpdate('RINGING', 'ringing')).toBeNull();
    expect(nextStatusFromStatusUpdate('QUEUED', 'queued')).toBeNull();
  });

  it('unknown provider values leave the status unchanged', () => {
    for (const current of ['QUEUED', 'RINGING', 'IN_PROGRESS'] as const) {
      expect(nextStatusFromStatusUpdate(current, 'not-found')).toBeNull();
      expect(nextStatusFromStatusUpdate(current, 'bogus')).toBeNull();
      expect(nextStatusFromStatusUpdate(current, undefined)).toBeNull();
    }
  });

  it('"ended" with a fault endedReason yields FAILED, with a normal one ENDED', () => {
    expect(nextStatusFromStatusUpdate('IN_PROGRESS', 'ended', 'call.start.error-get-assistant')).toBe('FAILED');
    expect(nextStatusFromStatusUpdate('RINGING', 'ended', 'customer-did-not-answer')).toBe('ENDED');
    expect(nextStatusFromStatusUpdate('RINGING', 'ended', null)).toBe('ENDED');
  });

  it('the endedReason is ignored unless the provider status is "ended"', () => {
    expect(nextStatusFromStatusUpdate('QUEUED', 'ringing', 'pipeline-error-openai-llm-failed')).toBe('RINGING');
  });
});

describe('phone call status: end-of-call-report transitions', () => {
  it.each(['QUEUED', 'RINGING', 'IN_PROGRESS'] as const)('a non-terminal %s call settles by endedReason', (current) => {
    expect(nextStatusFromEndOfCallReport(current, 'customer-ended-call')).toBe('ENDED');
    expect(nextStatusFromEndOfCallReport(current, 'pipeline-error-openai-llm-failed')).toBe('FAILED');
  });

  it('an ENDED call becomes FAILED when the report names a fault (bare "ended" came first)', () => {
    expect(nextStatusFromEndOfCallReport('ENDED', 'phone-call-provider-closed-websocket')).toBe('FAILED');
    expect(nextStatusFromEndOfCallReport('ENDED', 'customer-ended-call')).toBeNull();
  });

  it('a FAILED call never changes', () => {
    expect(nextStatusFromEndOfCallReport('FAILED', 'customer-ended-call')).toBeNull();
    expect(nextStatusFromEndOfCallReport('FAILED', 'pipeline-error-openai-llm-failed')).toBeNull();
  });
});

/** Applies messages in order the way the webhook handler will. */
function replay(start: CallStatus, events: Array<['status', string, string?] | ['report', string]>): CallStatus {
  let status = start;
  for (const event of events) {
    const next =
      event[0] === 'status'
        ? nextStatusFromStatusUpdate(status, event[1], event[2])
        : nextStatusFromEndOfCallReport(status, event[1]);
    if (next !== null) status = next;
  }
  return status;
}

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

describe('phone call status: order independence (redelivery and reordering)', () => {
  const scenarios: Array<{ name: string; events: Array<['status', string, string?] | ['report', string]>; final: CallStatus }> = [
    {
      name: 'normal call',
      events: [['status', 'ringing'], ['status', 'in-progress'], ['status', 'ended', 'customer-ended-call'], ['report', 'customer-ended-call']],
      final: 'ENDED',
    },
    {
      name: 'pipeline failure, reason only on the report',
      events: [['status', 'ringing'], ['status', 'in-progress'], ['status', 'ended'], ['report', 'pipeline-error-openai-llm-failed']],
      final: 'FAILED',
    },
    {
      name: 'start error on both messages',
      events: [['status', 'queued'], ['status', 'ended', 'call.start.error-subscription-frozen'], ['report', 'call.start.error-subscription-frozen']],
      final: 'FAILED',
    },
    {
      name: 'no answer',
      events: [['status', 'ringing'], ['status', 'ended', 'customer-did-not-answer'], ['report', 'customer-did-not-answer']],
      final: 'ENDED',
    },
  ];

  for (const scenario of scenarios) {
    it(`${scenario.name}: every delivery order, each message twice, ends ${scenario.final}`, () => {
      for (const order of permutations(scenario.events)) {
        expect(replay('QUEUED', [...order, ...order])).toBe(scenario.final);
      }
    });
  }
});
