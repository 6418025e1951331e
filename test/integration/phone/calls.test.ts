import { beforeAll, describe, expect, it } from 'vitest';
import { getOutboxRow } from '../../../db/outbox';
import { placeOutboundCall } from '../../../services/phone/placement';
import { client, INTERNAL_KEY } from '../../support/app';
import { expectProblem, seedTenant } from '../../support/fixtures';
import { PROVIDER_KEY, provisionNumber, seedPhoneTenant, usePhoneApp } from '../../support/phone';

const CUSTOMER = '+14155550199';

describe('phone calls: placement, reading and listing', () => {
  const ctx = usePhoneApp();
  const api = client(ctx);
  let t: Awaited<ReturnType<typeof seedPhoneTenant>>;
  let numberId: string;

  beforeAll(async () => {
    t = await seedPhoneTenant(ctx);
    numberId = (await provisionNumber(ctx, t.writer)).providerNumberId;
    const r = await api.put('/api/phone-settings', t.writer, { defaultAssistantId: 'asst-default', defaultPhoneNumberId: numberId });
    expect(r.status, r.text).toBe(200);
  });

  const callCount = async (tenantId: string) =>
    (await ctx.db.sql`select count(*)::int as n from phone_calls where tenant_id = ${tenantId}`)[0]!.n as number;

  it('POST /api/phone-calls: QUEUED row + outbox row, provider accepts → 201 RINGING, X-User-Id recorded as initiator', async () => {
    const before = ctx.standIn.requests.length;
    const r = await api.post('/api/phone-calls', t.writer, {
      customerNumber: CUSTOMER,
      customerName: 'Ada',
      assistantId: 'asst-explicit',
      variableValues: { firstName: 'Ada' },
      metadata: { orderId: 'o-1' },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.json).toMatchObject({
      direction: 'OUTBOUND',
      status: 'RINGING',
      assistantId: 'asst-explicit',
      phoneNumberId: numberId,
      customerNumber: CUSTOMER,
      initiatedBy: 'writer',
      processStatus: 'PENDING',
      errorMessage: null,
      businessKey: r.json.id,
    });
    // The provider call carries number id, customer, assistant, variable overrides and metadata.
    const sent = ctx.standIn.requests.slice(before).find((q) => q.route === 'POST /call')!;
    expect(sent.authorization).toBe(`Bearer ${PROVIDER_KEY}`);
    expect(sent.body).toEqual({
      phoneNumberId: numberId,
      assistantId: 'asst-explicit',
      customer: { number: CUSTOMER, name: 'Ada' },
      assistantOverrides: { variableValues: { firstName: 'Ada' }, metadata: { orderId: 'o-1', platformCallId: r.json.id } },
    });
    const providerCall = ctx.standIn.calls.find((c) => c.id === r.json.providerCallId);
    expect(providerCall).toBeDefined();
    const outbox = await getOutboxRow(ctx.db.db, 'PHONE', t.id, r.json.id);
    expect(outbox).toMatchObject({ state: 'QUEUED', workflowType: 'phoneCall', workflowId: `phone:${t.id}:${r.json.id}` });
    expect(outbox!.args).toEqual([{ tenantId: t.id, callId: r.json.id }]);
  });

  it('defaults: assistant and number come from PhoneSettings when the call omits them', async () => {
    const r = await api.post('/api/phone-calls', t.writer, { customerNumber: CUSTOMER });
    expect(r.status, r.text).toBe(201);
    expect(r.json).toMatchObject({ assistantId: 'asst-default', phoneNumberId: numberId, status: 'RINGING' });
  });

  it('caller mistakes are 4xx and save nothing: number not E.164 (400), unknown field (400)', async () => {
    const n = await callCount(t.id);
    expectProblem(await api.post('/api/phone-calls', t.writer, { customerNumber: '0415 555 0199' }), 400, 'validation-failed');
    expectProblem(await api.post('/api/phone-calls', t.writer, { customerNumber: CUSTOMER, colour: 'red' }), 400, 'validation-failed');
    expect(await callCount(t.id)).toBe(n);
  });

  it('no assistant or number resolvable, or no key: 422 with a named code, nothing saved, provider not asked', async () => {
    const bare = await seedPhoneTenant(ctx);
    const asked = ctx.standIn.requests.length;
    expectProblem(await api.post('/api/phone-calls', bare.writer, { customerNumber: CUSTOMER, phoneNumberId: 'pn-1' }), 422, 'assistant-unresolved');
    expectProblem(await api.post('/api/phone-calls', bare.writer, { customerNumber: CUSTOMER, assistantId: 'a-1' }), 422, 'phone-number-unresolved');
    const keyless = await seedPhoneTenant(ctx, { connectKey: false });
    expectProblem(
      await api.post('/api/phone-calls', keyless.writer, { customerNumber: CUSTOMER, assistantId: 'a', phoneNumberId: 'pn' }),
      422,
      'provider-key-missing',
    );
    expect(await callCount(bare.id)).toBe(0);
    expect(await callCount(keyless.id)).toBe(0);
    expect(ctx.standIn.requests.length).toBe(asked);
  });

  it("another tenant's registered number is refused as unknown (422 unknown-phone-number)", async () => {
    const other = await seedPhoneTenant(ctx);
    const r = await api.post('/api/phone-calls', other.writer, { customerNumber: CUSTOMER, assistantId: 'a', phoneNumberId: numberId });
    expectProblem(r, 422, 'unknown-phone-number');
  });

  it('provider failure never throws: 201 with the call FAILED and errorMessage naming the provider error', async () => {
    ctx.standIn.failNext('POST /call', { status: 400, body: { message: ['customer.number is invalid'], error: 'Bad Request', statusCode: 400 } });
    const r = await api.post('/api/phone-calls', t.writer, { customerNumber: CUSTOMER });
    expect(r.status, r.text).toBe(201);
    expect(r.json.status).toBe('FAILED');
    expect(r.json.errorMessage).toContain('HTTP 400');
    expect(r.json.errorMessage).toContain('customer.number is invalid');
    expect(r.json.providerCallId).toBeNull();
    expect(r.json.endedAt).not.toBeNull();
    // The row and its process were saved before the provider was asked.
    expect(await getOutboxRow(ctx.db.db, 'PHONE', t.id, r.json.id)).toMatchObject({ state: 'QUEUED' });
  });

  it('provider time-out and 5xx are recorded the same way (FAILED, errorMessage), never a 5xx answer', async () => {
    ctx.standIn.failNext('POST /call', 'timeout');
    const slow = await api.post('/api/phone-calls', t.writer, { customerNumber: CUSTOMER });
    expect(slow.status).toBe(201);
    expect(slow.json).toMatchObject({ status: 'FAILED', errorMessage: expect.stringContaining('timed out') });
    ctx.standIn.failNext('POST /call', { status: 503 });
    const down = await api.post('/api/phone-calls', t.writer, { customerNumber: CUSTOMER });
    expect(down.json).toMatchObject({ status: 'FAILED', errorMessage: expect.stringContaining('HTTP 503') });
  });

  it('GET /api/phone-calls/{id}: the call with transcript, recording, summary and cost; 404 for another tenant', async () => {
    const placed = await api.post('/api/phone-calls', t.writer, { customerNumber: CUSTOMER });
    const got = await api.get(`/api/phone-calls/${placed.json.id}`, t.reader);
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({ id: placed.json.id, transcript: null, recordingUrl: null, summary: null, cost: null });
    const other = await seedPhoneTenant(ctx);
    expectProblem(await api.get(`/api/phone-calls/${placed.json.id}`, other.reader), 404, 'phone-call-not-found');
    expectProblem(await api.get('/api/phone-calls/not-a-uuid', t.reader), 400, 'validation-failed');
  });

  it('guard: reading needs a PHONE grant, placing needs read-write (403 with the missing layer)', async () => {
    expectProblem(await api.get('/api/phone-calls', t.nobody), 403, 'capability-not-granted');
    expectProblem(await api.post('/api/phone-calls', t.reader, { customerNumber: CUSTOMER }), 403, 'capability-write-required');
    const unsubscribed = await seedTenant(ctx, { members: ['w'], grants: [] });
    expectProblem(await api.get('/api/phone-calls', unsubscribed.as('w')), 403, 'capability-not-subscribed');
  });

  it('one placement key places one call: a repeat (activity retry) returns the first call without dialling', async () => {
    const deps = { db: ctx.db.db, settings: ctx.settings, logger: ctx.deps.logger };
    const req = { tenantId: t.id, initiatedBy: 'workflow:wf-1', customerNumber: CUSTOMER, placementKey: 'wf:wf-1:run:1' };
    const first = await placeOutboundCall(deps, req);
    const asked = ctx.standIn.requests.length;
    const again = await placeOutboundCall(deps, req);
    expect(first.created).toBe(true);
    expect(again).toMatchObject({ created: false, call: { id: first.call.id } });
    expect(ctx.standIn.requests.length).toBe(asked);
  });

  it('Idempotency-Key: a retried POST returns the first call (200) without dialling again; other keys place new calls', async () => {
    const body = { customerNumber: CUSTOMER };
    const first = await api.post('/api/phone-calls', t.writer, body, { 'Idempotency-Key': 'retry-me-1' });
    expect(first.status, first.text).toBe(201);
    const asked = ctx.standIn.requests.length;
    const again = await api.post('/api/phone-calls', t.writer, body, { 'Idempotency-Key': 'retry-me-1' });
    expect(again.status).toBe(200);
    expect(again.json.id).toBe(first.json.id);
    expect(ctx.standIn.requests.length).toBe(asked);
    const other = await api.post('/api/phone-calls', t.writer, body, { 'Idempotency-Key': 'retry-me-2' });
    expect(other.status).toBe(201);
    expect(other.json.id).not.toBe(first.json.id);
    expectProblem(await api.post('/api/phone-calls', t.writer, body, { 'Idempotency-Key': 'has space' }), 400, 'validation-failed');
  });
});

describe('phone calls: the internal route (X-Internal-Key)', () => {
  const ctx = usePhoneApp();
  const api = client(ctx);
  let t: Awaited<ReturnType<typeof seedPhoneTenant>>;
  const body = { customerNumber: CUSTOMER, assistantId: 'asst-1' };

  beforeAll(async () => {
    t = await seedPhoneTenant(ctx);
    const n = await provisionNumber(ctx, t.writer);
    await api.put('/api/phone-settings', t.writer, { defaultPhoneNumberId: n.providerNumberId });
  });

  const internal = (headers: Record<string, string>, b: unknown = body) => api.post('/api/internal/phone-calls', null, b, headers);

  it('places a call with actor `system` when no X-User-Id is given', async () => {
    const r = await internal({ 'X-Internal-Key': INTERNAL_KEY, 'X-Tenant-Id': t.id });
    expect(r.status, r.text).toBe(201);
    expect(r.json).toMatchObject({ status: 'RINGING', initiatedBy: 'system', direction: 'OUTBOUND' });
  });

  it('records X-User-Id as the actor when the process names one', async () => {
    const r = await internal({ 'X-Internal-Key': INTERNAL_KEY, 'X-Tenant-Id': t.id, 'X-User-Id': 'bpmn-user' });
    expect(r.json.initiatedBy).toBe('bpmn-user');
  });

  it('missing or wrong X-Internal-Key is 401 and places nothing', async () => {
    const asked = ctx.standIn.requests.length;
    expectProblem(await internal({ 'X-Tenant-Id': t.id }), 401, 'internal-key-invalid');
    expectProblem(await internal({ 'X-Internal-Key': `${INTERNAL_KEY}x`, 'X-Tenant-Id': t.id }), 401, 'internal-key-invalid');
    expect(ctx.standIn.requests.length).toBe(asked);
  });

  it('unknown tenant is 404; a missing X-Tenant-Id is 400; caller mistakes are 4xx as on the tenant route', async () => {
    expectProblem(await internal({ 'X-Internal-Key': INTERNAL_KEY, 'X-Tenant-Id': 'no-such-tenant' }), 404, 'tenant-not-found');
    expectProblem(await internal({ 'X-Internal-Key': INTERNAL_KEY }), 400, 'validation-failed');
    expectProblem(
      await internal({ 'X-Internal-Key': INTERNAL_KEY, 'X-Tenant-Id': t.id }, { customerNumber: '12345' }),
      400,
      'validation-failed',
    );
  });

  it('a tenant without an ACTIVE PHONE subscription cannot place calls through the internal route (403)', async () => {
    const unsubscribed = await seedTenant(ctx, {});
    expectProblem(
      await internal({ 'X-Internal-Key': INTERNAL_KEY, 'X-Tenant-Id': unsubscribed.id }, { ...body, phoneNumberId: 'pn-x' }),
      403,
      'capability-not-subscribed',
    );
  });
});

describe('phone calls: the internal route with a blank internal.key', () => {
  const ctx = usePhoneApp({ 'internal.key': undefined });
  it('rejects everything (fail-closed), whatever key is sent', async () => {
    const t = await seedPhoneTenant(ctx);
    const asked = ctx.standIn.requests.length;
    for (const key of ['', 'anything', INTERNAL_KEY]) {
      const r = await client(ctx).post('/api/internal/phone-calls', null, { customerNumber: CUSTOMER }, { 'X-Internal-Key': key, 'X-Tenant-Id': t.id });
      expectProblem(r, 403, 'internal-api-disabled');
    }
    expect(ctx.standIn.requests.length).toBe(asked);
  });
});

describe('phone routes in the OpenAPI document', () => {
  const ctx = usePhoneApp();
  it('documents every route of the spec phone table with its method', async () => {
    const r = await client(ctx).get('/openapi.json', null);
    expect(r.status).toBe(200);
    const paths = r.json.paths as Record<string, Record<string, unknown>>;
    const expected: Array<[string, string]> = [
      ['/api/phone-calls', 'post'],
      ['/api/phone-calls', 'get'],
      ['/api/phone-calls/{id}', 'get'],
      ['/api/phone-numbers', 'post'],
      ['/api/phone-numbers', 'get'],
      ['/api/phone-numbers/{id}', 'get'],
      ['/api/phone-settings', 'get'],
      ['/api/phone-settings', 'put'],
      ['/api/phone-settings/api-key', 'post'],
      ['/api/phone-settings/api-key', 'delete'],
      ['/api/internal/phone-calls', 'post'],
      ['/api/public/phone/webhook', 'post'],
    ];
    for (const [path, method] of expected) expect(paths[path]?.[method], `${method} ${path}`).toBeDefined();
    expect(r.json.components.securitySchemes.VoiceSecret).toMatchObject({ in: 'header', name: 'X-Voice-Secret' });
  });
});
