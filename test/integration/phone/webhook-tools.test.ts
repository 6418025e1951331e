import { beforeAll, describe, expect, it } from 'vitest';
import type { PhoneToolHandler } from '../../../api/phone/tools';
import { TOOL_TIMED_OUT } from '../../../api/phone/tools';
import { TOOL_NOT_CONFIGURED } from '../../../domain/phone/tool-results';
import { TOOL_CALL_VARIANTS, toolCalls } from '../../stand-ins/vapi/messages';
import { postWebhook, seedPhoneTenant, seedTrackedCall, usePhoneApp } from '../../support/phone';

const tools = new Map<string, PhoneToolHandler>([
  ['lookupOrder', (args, ctx) => ({ order: args.orderId, status: 'shipped', tenant: ctx.tenantId })],
  ['multiLine', () => 'line one\nline two\r\n\tline three'],
  ['explode', () => {
    throw new Error('inventory service\nunavailable');
  }],
  [
    'hang',
    (_args, ctx) =>
      new Promise((resolve) => {
        // Resolves only when the answer window closes (its signal aborts).
        ctx.signal.addEventListener('abort', () => resolve('too late'));
      }),
  ],
]);

describe('webhook: tool-calls', () => {
  const ctx = usePhoneApp({ deps: { phoneTools: tools } });
  let t: Awaited<ReturnType<typeof seedPhoneTenant>>;
  let call: { id: string; providerCallId: string };

  beforeAll(async () => {
    t = await seedPhoneTenant(ctx, { connectKey: false });
    call = await seedTrackedCall(ctx, t.id, 'IN_PROGRESS');
  });

  it.each(TOOL_CALL_VARIANTS)('payload variant %s: each entry is answered by its toolCallId with a single-line result', async (variant) => {
    const r = await postWebhook(
      ctx,
      toolCalls({ callId: call.providerCallId, variant, calls: [{ id: 'tc-1', name: 'lookupOrder', arguments: { orderId: 'A-7' } }, { id: 'tc-2', name: 'multiLine', arguments: {} }] }),
    );
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      results: [
        { toolCallId: 'tc-1', name: 'lookupOrder', result: JSON.stringify({ order: 'A-7', status: 'shipped', tenant: t.id }) },
        { toolCallId: 'tc-2', name: 'multiLine', result: 'line one line two line three' },
      ],
    });
  });

  it('the tool sees the tenant of the call (not of any header)', async () => {
    const other = await seedPhoneTenant(ctx, { connectKey: false });
    const r = await postWebhook(ctx, toolCalls({ callId: call.providerCallId, calls: [{ id: 'tc-h', name: 'lookupOrder', arguments: { orderId: 'B' } }] }), {
      'X-Tenant-Id': other.id,
    });
    expect(JSON.parse(r.json.results[0].result).tenant).toBe(t.id);
  });

  it('a tool without a handler answers that it is not configured; a throwing tool answers its error on one line', async () => {
    const r = await postWebhook(
      ctx,
      toolCalls({ callId: call.providerCallId, calls: [{ id: 'tc-3', name: 'bookFlight', arguments: {} }, { id: 'tc-4', name: 'explode', arguments: {} }] }),
    );
    expect(r.json.results).toEqual([
      { toolCallId: 'tc-3', name: 'bookFlight', error: TOOL_NOT_CONFIGURED },
      { toolCallId: 'tc-4', name: 'explode', error: 'inventory service unavailable' },
    ]);
  });

  it('arguments that are not JSON are answered as an error for that entry only', async () => {
    const r = await postWebhook(
      ctx,
      toolCalls({
        callId: call.providerCallId,
        variant: 'nested-json-string',
        calls: [{ id: 'tc-5', name: 'lookupOrder', arguments: '{"orderId":' }],
      }),
    );
    expect(r.json.results[0]).toMatchObject({ toolCallId: 'tc-5', error: expect.stringContaining('not valid JSON') });
  });

  it('an untracked call still gets answers (tools see no tenant)', async () => {
    const r = await postWebhook(ctx, toolCalls({ callId: 'call-untracked', calls: [{ id: 'tc-6', name: 'lookupOrder', arguments: { orderId: 'C' } }] }));
    expect(JSON.parse(r.json.results[0].result).tenant).toBeNull();
  });

  it('answers every entry within the window: a hanging tool is answered as timed out, the others with their results', async () => {
    const budget = ctx.settings['phone.tool-calls-budget-ms'];
    ctx.settings['phone.tool-calls-budget-ms'] = 400;
    try {
      const started = Date.now();
      const r = await postWebhook(
        ctx,
        toolCalls({ callId: call.providerCallId, calls: [{ id: 'tc-7', name: 'hang', arguments: {} }, { id: 'tc-8', name: 'multiLine', arguments: {} }] }),
      );
      const elapsed = Date.now() - started;
      expect(r.json.results).toEqual([
        { toolCallId: 'tc-7', name: 'hang', error: TOOL_TIMED_OUT },
        { toolCallId: 'tc-8', name: 'multiLine', result: 'line one line two line three' },
      ]);
      // The tool hangs for ever: an answer at all, naming it timed out, is the budget cutting it
      // off; how soon after the budget a loaded machine gets the answer out is not this test's.
      expect(elapsed).toBeGreaterThanOrEqual(380);
    } finally {
      ctx.settings['phone.tool-calls-budget-ms'] = budget;
    }
  });

  it('the default window (7 s, inside the spec\'s 7.5 s) cuts a hanging tool off when it ends', async () => {
    const started = Date.now();
    const r = await postWebhook(ctx, toolCalls({ callId: call.providerCallId, calls: [{ id: 'tc-9', name: 'hang', arguments: {} }] }));
    const elapsed = Date.now() - started;
    expect(r.json.results[0]).toEqual({ toolCallId: 'tc-9', name: 'hang', error: TOOL_TIMED_OUT });
    expect(ctx.settings['phone.tool-calls-budget-ms']).toBe(7_000);
    expect(elapsed).toBeGreaterThanOrEqual(6_500);
  });
});

describe('webhook: tool-calls without a registry', () => {
  const ctx = usePhoneApp();
  it('every tool answers that it is not configured (the default handler)', async () => {
    const r = await postWebhook(ctx, toolCalls({ callId: 'c-x', calls: [{ id: 'a', name: 'anything', arguments: {} }] }));
    expect(r.json).toEqual({ results: [{ toolCallId: 'a', name: 'anything', error: TOOL_NOT_CONFIGURED }] });
  });
});
