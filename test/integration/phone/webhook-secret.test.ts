import { describe, expect, it } from 'vitest';
import { createApp } from '../../../api/app';
import type { Db } from '../../../db/client';
import { UNKNOWN_NUMBER_SENTENCE } from '../../../domain/phone/assistant-request';
import { assistantRequest, statusUpdate, toolCalls } from '../../stand-ins/vapi/messages';
import { expectProblem } from '../../support/fixtures';
import { postWebhook, usePhoneApp } from '../../support/phone';

const SECRET = 'voice-secret-3f9a1c77d2';
const probe = statusUpdate({ callId: 'call-probe', status: 'ringing' });

describe('webhook secret: unset', () => {
  const ctx = usePhoneApp();
  it('allows the webhook and logs a warning', async () => {
    const r = await postWebhook(ctx, probe);
    expect(r.status).toBe(200);
    expect(ctx.logs.text()).toContain('phone.webhook-secret is not set');
    const warnings = ctx.logs.lines.map((l) => JSON.parse(l)).filter((l) => l.level === 40 && l.webhookSecret === 'unset');
    expect(warnings).toHaveLength(1);
    // Throttled: the next deliveries do not flood the log.
    await postWebhook(ctx, probe);
    expect(ctx.logs.lines.map((l) => JSON.parse(l)).filter((l) => l.level === 40 && l.webhookSecret === 'unset')).toHaveLength(1);
  });
});

describe('webhook secret: unset but required', () => {
  const ctx = usePhoneApp({ 'phone.webhook-require-secret': true });
  it('rejects every webhook with 401 (nothing could match)', async () => {
    expectProblem(await postWebhook(ctx, probe), 401, 'webhook-secret-invalid');
    expectProblem(await postWebhook(ctx, probe, { 'X-Voice-Secret': 'anything' }), 401, 'webhook-secret-invalid');
  });
});

describe('webhook secret: set, not required', () => {
  const ctx = usePhoneApp({ 'phone.webhook-secret': SECRET });
  it('the right secret is accepted', async () => {
    expect((await postWebhook(ctx, probe, { 'X-Voice-Secret': SECRET })).status).toBe(200);
  });
  it('a wrong secret is always 401', async () => {
    expectProblem(await postWebhook(ctx, probe, { 'X-Voice-Secret': `${SECRET}0` }), 401, 'webhook-secret-invalid');
    expectProblem(await postWebhook(ctx, probe, { 'X-Voice-Secret': 'x' }), 401, 'webhook-secret-invalid');
  });
  it('a missing secret is allowed with a warning (enforce with phone.webhook-require-secret)', async () => {
    expect((await postWebhook(ctx, probe)).status).toBe(200);
    expect(ctx.logs.text()).toContain('webhook without X-Voice-Secret accepted');
    expect(ctx.logs.text()).not.toContain(SECRET);
  });
});

describe('webhook secret: set and required', () => {
  const ctx = usePhoneApp({ 'phone.webhook-secret': SECRET, 'phone.webhook-require-secret': true });
  it('missing or wrong secret is a 401 problem; the right one passes', async () => {
    expectProblem(await postWebhook(ctx, probe), 401, 'webhook-secret-invalid');
    expectProblem(await postWebhook(ctx, probe, { 'X-Voice-Secret': SECRET.slice(0, -1) }), 401, 'webhook-secret-invalid');
    expect((await postWebhook(ctx, probe, { 'X-Voice-Secret': SECRET })).status).toBe(200);
  });
});

describe('webhook: never 500', () => {
  const ctx = usePhoneApp();
  it('a failure inside handling (database down) is logged and acknowledged with 200 and the safe answer', async () => {
    const broken = new Proxy({}, {
      get() {
        throw new Error('database is down');
      },
    }) as Db;
    const app = createApp({ ...ctx.deps, db: broken });
    const post = async (body: unknown) => {
      const res = await app.request('/api/public/phone/webhook', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, json: (await res.json()) as any };
    };
    expect(await post(statusUpdate({ callId: 'c1', status: 'in-progress' }))).toEqual({ status: 200, json: {} });
    expect(await post(assistantRequest({ callId: 'c2', phoneNumberId: 'pn' }))).toEqual({ status: 200, json: { error: UNKNOWN_NUMBER_SENTENCE } });
    const tools = await post(toolCalls({ callId: 'c3', calls: [{ id: 't1', name: 'x', arguments: {} }] }));
    expect(tools.status).toBe(200);
    expect(tools.json.results[0]).toMatchObject({ toolCallId: 't1' });
    expect(ctx.logs.text()).toContain('webhook handling failed; acknowledged with 200');
  });
});

describe('webhook: body bound', () => {
  const ctx = usePhoneApp();
  it('a body above 10 MiB is refused with 413 before it is read (unauthenticated route)', async () => {
    const r = await postWebhook(ctx, 'x', { 'Content-Length': String(10 * 1024 * 1024 + 1) });
    expectProblem(r, 413, 'payload-too-large');
  });
});
