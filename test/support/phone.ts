import { randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import type pino from 'pino';
import { createLogger } from '../../workers/logger';
import { suiteLogDestination } from './suite-log';
import { afterAll, beforeAll, expect } from 'vitest';
import type { AppDeps } from '../../api/deps';
import { getPhoneCall } from '../../db/queries/phone';
import { phoneCalls } from '../../db/schema/phone';
import { enqueueCallProcess } from '../../services/phone/call-events';
import type { Settings } from '../../domain/settings';
import { start, type VapiStandIn } from '../stand-ins/vapi/server';
import { client, useTestApp, type TestContext, type Who } from './app';
import { seedTenant } from './fixtures';

/** The key the stand-in accepts; a tenant connects it, or the fallback setting carries it. */
export const PROVIDER_KEY = `sk-live-${randomBytes(12).toString('hex')}`;

/** Every log line the app writes, as text, so tests can scan them (e.g. for a leaked key). */
export function captureLogger(level: pino.Level = 'debug') {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      suiteLogDestination().write(String(chunk));
      done();
    },
  });
  // The production logger (workers/logger.ts), so the scan sees exactly what production would write.
  const logger = createLogger({ 'log.level': level }, 'test', stream);
  return { logger, lines, text: () => lines.join('') };
}

export interface PhoneTestContext extends TestContext {
  standIn: VapiStandIn;
  logs: ReturnType<typeof captureLogger>;
}

/** A test app whose provider is the stand-in; secrets sealed with a fresh master key. */
export function usePhoneApp(overrides: Partial<Settings> & { deps?: Partial<AppDeps> } = {}): PhoneTestContext {
  const logs = captureLogger();
  const ctx = useTestApp({
    'secrets.master-key': randomBytes(32),
    'phone.provider-timeout-ms': 1_500,
    ...overrides,
    deps: { logger: logs.logger, ...overrides.deps },
  }) as PhoneTestContext;
  ctx.logs = logs;
  beforeAll(async () => {
    ctx.standIn = await start({ apiKey: PROVIDER_KEY });
    // Settings are one object shared with the app's deps: the stand-in's port is only known now.
    ctx.settings['phone.provider-base-url'] = ctx.standIn.baseUrl;
  });
  afterAll(async () => {
    await ctx.standIn?.close();
  });
  return ctx;
}

/** A tenant with PHONE subscribed: `writer` (read-write), `reader` (read), `nobody` (no grant). */
export async function seedPhoneTenant(
  ctx: TestContext,
  opts: { connectKey?: boolean; defaults?: { defaultAssistantId?: string; defaultPhoneNumberId?: string } } = {},
) {
  const t = await seedTenant(ctx, {
    members: ['writer', 'reader', 'nobody'],
    subscribe: ['PHONE'],
    grants: [
      { user: 'writer', code: 'PHONE', level: 'read-write' },
      { user: 'reader', code: 'PHONE', level: 'read' },
    ],
  });
  const writer: Who = t.as('writer');
  const api = client(ctx);
  if (opts.connectKey ?? true) {
    const r = await api.post('/api/phone-settings/api-key', writer, { apiKey: PROVIDER_KEY });
    expect(r.status, r.text).toBe(204);
  }
  if (opts.defaults) {
    const r = await api.put('/api/phone-settings', writer, opts.defaults);
    expect(r.status, r.text).toBe(200);
  }
  return { ...t, writer, reader: t.as('reader'), nobody: t.as('nobody') };
}

/** Registers a provider number for the tenant through the API (the stand-in issues the id). */
export async function provisionNumber(ctx: TestContext, who: Who, assistantId?: string) {
  const r = await client(ctx).post('/api/phone-numbers', who, { provider: 'vapi', ...(assistantId ? { assistantId } : {}) });
  expect(r.status, r.text).toBe(201);
  return r.json as { id: string; providerNumberId: string; number: string };
}

export function postWebhook(ctx: TestContext, body: unknown, headers: Record<string, string> = {}) {
  return client(ctx).call('POST', '/api/public/phone/webhook', null, body, headers);
}

/** A tracked call written directly (with its outbox row), for webhook tests that start mid-call. */
export async function seedTrackedCall(
  ctx: TestContext,
  tenantId: string,
  status: 'QUEUED' | 'RINGING' | 'IN_PROGRESS' | 'ENDED' | 'FAILED' = 'RINGING',
  direction: 'INBOUND' | 'OUTBOUND' = 'OUTBOUND',
) {
  const id = randomUUID();
  const providerCallId = `call-${randomUUID()}`;
  await ctx.db.db.transaction(async (tx) => {
    await tx.insert(phoneCalls).values({
      id,
      tenantId,
      direction,
      status,
      providerCallId,
      phoneNumberId: 'pn-seeded',
      assistantId: 'asst-seeded',
      customerNumber: '+14155550142',
      businessKey: id,
      initiatedBy: 'seed',
    });
    await enqueueCallProcess(tx, tenantId, id);
  });
  return { id, providerCallId };
}

export async function readCall(ctx: TestContext, id: string) {
  const rows = await ctx.db.sql`select tenant_id from phone_calls where id = ${id}`;
  return getPhoneCall(ctx.db.db, rows[0]!.tenant_id as string, id);
}

/**
 * A process calendar `key` (calendar `code`, one UTC location) open from `opensAt` (its time of
 * day, UTC) to midnight on `days` (ISO weekdays, default every day), and the owner's CALENDAR and
 * SLA grants it takes (process calendars are SLA's), through the API.
 */
export async function createCallingCalendar(
  ctx: TestContext,
  t: { id: string; asOwner: Who; owner: string },
  p: { code: string; key: string; opensAt: Date; days?: number[] },
) {
  const api = client(ctx);
  // Idempotent: a second calendar of the same tenant finds them in place.
  for (const code of ['CALENDAR', 'SLA']) {
    expect((await api.put(`/api/tenants/${t.id}/capabilities/${code}`, t.asOwner)).status).toBe(200);
    expect((await api.put(`/api/tenants/${t.id}/users/${t.owner}/capabilities/${code}`, t.asOwner, { level: 'read-write' })).status).toBe(200);
  }
  expect((await api.post('/api/business-calendars', t.asOwner, { calendarCode: p.code, name: `Calling ${p.code}` })).status).toBe(201);
  expect((await api.post(`/api/business-calendars/${p.code}/locations`, t.asOwner, { locationCode: 'UTC', name: 'UTC', timezone: 'UTC' })).status).toBe(201);
  const startTime = p.opensAt.toISOString().slice(11, 16);
  for (const dayOfWeek of p.days ?? [1, 2, 3, 4, 5, 6, 7]) {
    const h = await api.post(`/api/business-calendars/${p.code}/locations/UTC/business-hours`, t.asOwner, { dayOfWeek, startTime, endTime: '24:00' });
    expect(h.status, h.text).toBe(201);
  }
  expect((await api.post('/api/process-calendars', t.asOwner, { processDefinitionKey: p.key, calendarCode: p.code })).status).toBe(201);
}
