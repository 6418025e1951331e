import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { runToolCalls, TOOL_TIMED_OUT, type PhoneToolHandler } from '../../../api/phone/tools';
import { checkVoiceSecret } from '../../../api/phone/webhook-routes';
import { planStatusUpdate } from '../../../services/phone/call-events';

const s = (secret: string | undefined, require: boolean) => ({ 'phone.webhook-secret': secret, 'phone.webhook-require-secret': require });

describe('webhook secret modes (spec, Authentication: provider webhook)', () => {
  it('unset secret allows (with a warning) unless the secret is required', () => {
    expect(checkVoiceSecret(s(undefined, false), undefined)).toBe('allowed-unset');
    expect(checkVoiceSecret(s(undefined, false), 'whatever')).toBe('allowed-unset');
    expect(checkVoiceSecret(s(undefined, true), undefined)).toBe('reject');
    expect(checkVoiceSecret(s(undefined, true), 'whatever')).toBe('reject');
  });
  it('a configured secret: right passes, wrong is always rejected, missing is rejected only when required', () => {
    expect(checkVoiceSecret(s('abc-123', false), 'abc-123')).toBe('ok');
    expect(checkVoiceSecret(s('abc-123', true), 'abc-123')).toBe('ok');
    expect(checkVoiceSecret(s('abc-123', false), 'abc-124')).toBe('reject');
    expect(checkVoiceSecret(s('abc-123', false), 'abc-1234')).toBe('reject');
    expect(checkVoiceSecret(s('abc-123', false), undefined)).toBe('allowed-missing');
    expect(checkVoiceSecret(s('abc-123', false), '')).toBe('allowed-missing');
    expect(checkVoiceSecret(s('abc-123', true), undefined)).toBe('reject');
  });
});

describe('tool-call dispatch', () => {
  const log = pino({ level: 'silent' });
  const ctx = { tenantId: 't', callId: null, providerCallId: null, log };
  it('answers in the order of the list, each by its own id, whatever order they finish in', async () => {
    const registry = new Map<string, PhoneToolHandler>([
      ['slow', async () => new Promise((r) => setTimeout(() => r('slow done'), 30))],
      ['fast', () => 'fast done'],
    ]);
    const results = await runToolCalls(
      registry,
      [
        { id: '1', name: 'slow', arguments: {}, argumentsError: null },
        { id: '2', name: 'fast', arguments: {}, argumentsError: null },
      ],
      ctx,
      1_000,
    );
    expect(results).toEqual([
      { toolCallId: '1', name: 'slow', result: 'slow done' },
      { toolCallId: '2', name: 'fast', result: 'fast done' },
    ]);
  });
  it('a spent budget answers every running tool as timed out and aborts its signal', async () => {
    let aborted = false;
    const registry = new Map<string, PhoneToolHandler>([
      [
        'hang',
        (_a, c) =>
          new Promise(() => c.signal.addEventListener('abort', () => (aborted = true))),
      ],
    ]);
    const results = await runToolCalls(registry, [{ id: 'h', name: 'hang', arguments: {}, argumentsError: null }], ctx, 20);
    expect(results).toEqual([{ toolCallId: 'h', name: 'hang', error: TOOL_TIMED_OUT }]);
    expect(aborted).toBe(true);
  });
});

describe('status-update plan (one conditional update, derived from the ordering rule)', () => {
  it('moves forward only, from the statuses behind the target', () => {
    expect(planStatusUpdate('ringing', null)).toEqual({ to: 'RINGING', from: ['QUEUED'] });
    expect(planStatusUpdate('forwarding', null)).toEqual({ to: 'IN_PROGRESS', from: ['QUEUED', 'RINGING'] });
    expect(planStatusUpdate('ended', null)).toEqual({ to: 'ENDED', from: ['QUEUED', 'RINGING', 'IN_PROGRESS'] });
    expect(planStatusUpdate('ended', 'pipeline-error-openai-llm-failed')).toEqual({ to: 'FAILED', from: ['QUEUED', 'RINGING', 'IN_PROGRESS'] });
  });
  it('a status that can never move a call plans nothing', () => {
    expect(planStatusUpdate('queued', null)).toEqual({ to: null, from: [] });
    expect(planStatusUpdate('banana', null)).toEqual({ to: null, from: [] });
  });
});
