// Prometheus metrics: the process's own listener (guard, never on the API port), every platform_*
// family moving as requests are made, and label cardinality staying bounded under many tenants and ids.
import { Client } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../api/app';
import { createPhoneActivities } from '../../../activities/phone';
import { freeLoopbackPort, startMetricsServer, type MetricsListener } from '../../../workers/metrics-server';
import { OutboxDispatcher, temporalStarter } from '../../../workers/dispatcher';
import { statusUpdate } from '../../stand-ins/vapi/messages';
import { client, INTERNAL_KEY } from '../../support/app';
import { docApi, formFields, patterned, ResponseRecorder, seedDocTenant, testS3Client } from '../../support/documents';
import { seedTenant } from '../../support/fixtures';
import { labelSets, scrape, value, type Scrape } from '../../support/metrics';
import { postWebhook, provisionNumber, seedPhoneTenant, usePhoneApp } from '../../support/phone';
import { startTestWorker, type TestWorker } from '../../support/temporal';

const TOKEN = 'scrape-token-0123456789';
const s3 = testS3Client();

describe('Prometheus metrics on the process listener', () => {
  // metrics.port only has to be non-zero when the app is built; the listener takes a free port below.
  const ctx = usePhoneApp({ 'metrics.port': 9464, 'metrics.host': '127.0.0.1', 'metrics.token': TOKEN, 'database.pool-size': 20, deps: { s3 } });
  const api = client(ctx);
  let listener: MetricsListener;
  let worker: TestWorker;
  let phone: Awaited<ReturnType<typeof seedPhoneTenant>>;
  const now = () => scrape(listener.url, TOKEN);

  beforeAll(async () => {
    ctx.settings['metrics.port'] = await freeLoopbackPort();
    listener = (await startMetricsServer(ctx.settings, { database: ctx.db }, pino({ level: 'silent' })))!;
    worker = await startTestWorker(createPhoneActivities({ db: ctx.db.db, settings: ctx.settings, logger: ctx.deps.logger }));
    phone = await seedPhoneTenant(ctx);
    const numberId = (await provisionNumber(ctx, phone.writer, 'asst-inbound')).providerNumberId;
    await api.put('/api/phone-settings', phone.writer, { defaultAssistantId: 'asst-1', defaultPhoneNumberId: numberId });
  });
  afterAll(async () => {
    await listener?.close();
    await worker?.stop();
  });

  const moved = async (before: Scrape, name: string, labels: Record<string, string>) => value(await now(), name, labels) - value(before, name, labels);

  describe('the listener', () => {
    it('answers 401 without the bearer token or with a wrong one, 200 with it', async () => {
      expect((await fetch(listener.url)).status).toBe(401);
      expect((await fetch(listener.url, { headers: { Authorization: `Bearer ${TOKEN}x` } })).status).toBe(401);
      expect((await fetch(listener.url, { headers: { Authorization: TOKEN } })).status).toBe(401);
      const ok = await fetch(listener.url, { headers: { Authorization: `Bearer ${TOKEN}` } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toContain('text/plain');
    });

    it('serves only GET /metrics, and the public API has no /metrics', async () => {
      expect((await fetch(listener.url.replace('/metrics', '/other'), { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
      expect((await api.get('/metrics', null)).status).toBe(404);
    });

    it('answers GET /health/live without a token, for the probes of roles that serve no other HTTP', async () => {
      const live = await fetch(listener.url.replace('/metrics', '/health/live'));
      expect(live.status).toBe(200);
      expect(await live.text()).toBe('ok\n');
    });

    it('a second start in the same process (npm start: API and worker) joins the first listener', async () => {
      expect(await startMetricsServer(ctx.settings, { database: ctx.db }, pino({ level: 'silent' }))).toBe(listener);
    });

    it('metrics.port 0 turns metrics off: no listener, and the app counts nothing', async () => {
      const off = { ...ctx.settings, 'metrics.port': 0 };
      expect(await startMetricsServer(off, { database: ctx.db }, pino({ level: 'silent' }))).toBeUndefined();
      const before = await now();
      const quiet = createApp({ ...ctx.deps, settings: off });
      expect((await quiet.request('/health/live')).status).toBe(200);
      expect(await moved(before, 'platform_http_requests_total', { route: '/health/live' })).toBe(0);
    });
  });

  describe('HTTP', () => {
    it('counts and times requests by method, route template and status class', async () => {
      const before = await now();
      const id = randomUUID();
      expect((await api.get(`/api/phone-calls/${id}`, phone.writer)).status).toBe(404);
      expect((await api.get('/api/phone-calls', phone.writer)).status).toBe(200);
      const after = await now();
      const one = { method: 'GET', route: '/api/phone-calls/:id', status_class: '4xx' };
      expect(value(after, 'platform_http_requests_total', one) - value(before, 'platform_http_requests_total', one)).toBe(1);
      const list = { method: 'GET', route: '/api/phone-calls', status_class: '2xx' };
      expect(value(after, 'platform_http_requests_total', list) - value(before, 'platform_http_requests_total', list)).toBe(1);
      expect(value(after, 'platform_http_request_duration_seconds_count', list) - value(before, 'platform_http_request_duration_seconds_count', list)).toBe(1);
    });

    it('a path that matches no route is one fixed label', async () => {
      const before = await now();
      for (let i = 0; i < 3; i++) expect((await api.get(`/nowhere/${randomUUID()}`, null)).status).toBe(404);
      expect(await moved(before, 'platform_http_requests_total', { route: '(unmatched)', status_class: '4xx' })).toBe(3);
    });
  });

  describe('access', () => {
    it('guard decisions by outcome', async () => {
      const before = await now();
      expect((await api.get('/api/phone-calls', phone.reader)).status).toBe(200);
      expect((await api.post('/api/phone-calls', phone.reader, { customerNumber: '+14155550100' })).status).toBe(403);
      expect((await api.get('/api/phone-calls', phone.nobody)).status).toBe(403);
      const after = await now();
      const delta = (outcome: string) =>
        value(after, 'platform_access_guard_decisions_total', { outcome }) - value(before, 'platform_access_guard_decisions_total', { outcome });
      expect(delta('allowed')).toBe(1);
      expect(delta('capability-write-required')).toBe(1);
      expect(delta('capability-not-granted')).toBe(1);
    });

    it('caller-snapshot cache hits and misses', async () => {
      const t = await seedTenant(ctx, { members: ['m'] });
      const before = await now();
      await api.get('/api/my-capabilities', t.as('m'));
      await api.get('/api/my-capabilities', t.as('m'));
      const after = await now();
      const delta = (result: string) =>
        value(after, 'platform_access_cache_lookups_total', { result }) - value(before, 'platform_access_cache_lookups_total', { result });
      expect(delta('miss')).toBeGreaterThanOrEqual(1);
      expect(delta('hit')).toBeGreaterThanOrEqual(1);
    });
  });

  describe('phone', () => {
    it('webhook messages by type and outcome', async () => {
      const before = await now();
      await postWebhook(ctx, statusUpdate({ callId: `call-${randomUUID()}`, status: 'ringing' }));
      await postWebhook(ctx, { message: { type: 'speech-update' } });
      const after = await now();
      const delta = (type: string) =>
        value(after, 'platform_phone_webhook_messages_total', { type, outcome: 'handled' }) -
        value(before, 'platform_phone_webhook_messages_total', { type, outcome: 'handled' });
      expect(delta('status-update')).toBe(1);
      expect(delta('unknown')).toBe(1);
    });
  });

  describe('outbox', () => {
    it('queued rows and oldest age per capability; dispatch latency once Temporal started the workflow', async () => {
      const placed = await api.post('/api/phone-calls', phone.writer, { customerNumber: '+14155550101' });
      expect(placed.status, placed.text).toBe(201);
      const queued = await now();
      expect(value(queued, 'platform_outbox_queued_rows', { capability: 'PHONE' })).toBeGreaterThanOrEqual(1);
      expect(value(queued, 'platform_outbox_oldest_queued_age_seconds', { capability: 'PHONE' })).toBeGreaterThanOrEqual(0);
      const dispatcher = new OutboxDispatcher({
        database: ctx.db,
        logger: pino({ level: 'silent' }),
        startWorkflow: temporalStarter(worker.client, worker.taskQueue),
        capabilities: ['PHONE'],
        pollMs: 60_000,
        batchSize: 50,
        maxAttempts: 3,
        backoffMs: 100,
      });
      await dispatcher.dispatchOnce();
      const after = await now();
      expect(value(after, 'platform_outbox_queued_rows', { capability: 'PHONE' })).toBe(0);
      const started = { capability: 'PHONE', verb: 'start' };
      expect(value(after, 'platform_outbox_dispatch_latency_seconds_count', started) - value(queued, 'platform_outbox_dispatch_latency_seconds_count', started)).toBeGreaterThanOrEqual(1);
    });

    it('start failures are counted per attempt, and the row that exhausts its attempts as FAILED', async () => {
      expect((await api.post('/api/phone-calls', phone.writer, { customerNumber: '+14155550102' })).status).toBe(201);
      // A real Temporal refusal: the namespace does not exist.
      const nowhere = new Client({ connection: worker.client.connection, namespace: `missing-${randomUUID()}` });
      const dispatcher = new OutboxDispatcher({
        database: ctx.db,
        logger: pino({ level: 'silent' }),
        startWorkflow: temporalStarter(nowhere, worker.taskQueue),
        capabilities: ['PHONE'],
        pollMs: 60_000,
        batchSize: 50,
        maxAttempts: 1,
        backoffMs: 100,
      });
      const before = await now();
      expect(await dispatcher.dispatchOnce()).toBeGreaterThanOrEqual(1);
      const labels = { capability: 'PHONE', verb: 'start' };
      const after = await now();
      expect(value(after, 'platform_outbox_delivery_failures_total', labels) - value(before, 'platform_outbox_delivery_failures_total', labels)).toBeGreaterThanOrEqual(1);
      expect(value(after, 'platform_outbox_rows_failed_total', labels) - value(before, 'platform_outbox_rows_failed_total', labels)).toBeGreaterThanOrEqual(1);
    });
  });

  describe('documents', () => {
    const rec = new ResponseRecorder();
    const docs = docApi(() => ctx.app, rec, INTERNAL_KEY);

    it('bytes uploaded and downloaded', async () => {
      const t = await seedDocTenant(ctx);
      const before = await now();
      const up = await docs.upload(t.as('writer'), { fields: formFields('metrics-doc'), file: { filename: 'a.bin', data: patterned(12_345) } });
      expect(up.status, up.text).toBe(201);
      expect((await docs.get(`/api/documents/${up.json.id}/content`, t.as('writer'))).status).toBe(200);
      expect((await docs.get(`/api/documents/${up.json.id}/content`, t.as('writer'), { Range: 'bytes=0-99' })).status).toBe(206);
      const after = await now();
      const delta = (direction: string) => value(after, 'platform_document_bytes_total', { direction }) - value(before, 'platform_document_bytes_total', { direction });
      expect(delta('upload')).toBe(12_345);
      expect(delta('download')).toBe(12_345 + 100);
    });

    it('scan outcomes: a scanner that cannot be reached counts an error', async () => {
      const closedPort = await freeLoopbackPort();
      const scanning = createApp({ ...ctx.deps, settings: { ...ctx.settings, 'docstore.scan': 'clamav', 'docstore.clamav-host': '127.0.0.1', 'docstore.clamav-port': closedPort } });
      const t = await seedDocTenant(ctx);
      const before = await now();
      const up = await docApi(() => scanning, rec, INTERNAL_KEY).upload(t.as('writer'), { fields: formFields('metrics-scan'), file: { filename: 'b.bin', data: patterned(1000) } });
      expect(up.json).toMatchObject({ status: 'PENDING', scanStatus: 'ERROR' });
      expect(await moved(before, 'platform_document_scans_total', { outcome: 'error' })).toBe(1);
    });
  });

  describe('database pool', () => {
    it('in use while a transaction holds a connection; waiting once every connection is held', async () => {
      const idle = await now();
      expect(value(idle, 'platform_db_pool_size')).toBe(20);
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const held = Array.from({ length: 20 }, () => ctx.db.db.transaction(async (tx) => {
        await tx.execute('select 1');
        await gate;
      }));
      await new Promise((r) => setTimeout(r, 300));
      // One more statement than the pool holds: it waits for a connection until the gate opens.
      const queued = Promise.resolve(ctx.db.db.execute('select 1')); // drizzle runs a query once it is awaited
      // The scrape's own backlog query waits for a connection too: read it once the gate opens.
      const busy = now();
      setTimeout(release, 300);
      const during = await busy;
      await Promise.all([...held, queued]);
      expect(value(during, 'platform_db_pool_in_use')).toBe(20);
      expect(value(during, 'platform_db_pool_waiting')).toBeGreaterThanOrEqual(1);
      expect(value(await now(), 'platform_db_pool_waiting')).toBe(0);
    });
  });

  describe('label cardinality', () => {
    it('stays bounded after requests from many tenants with many ids: no tenant id, id or token is a label value', async () => {
      const tenants = await Promise.all(Array.from({ length: 4 }, () => seedTenant(ctx, { members: ['u'], subscribe: ['PHONE'], grants: [{ user: 'u', code: 'PHONE', level: 'read' }] })));
      const ids: string[] = [];
      const seriesBefore = labelSets(await now(), 'platform_http_requests_total').length;
      for (const t of tenants) {
        for (let i = 0; i < 10; i++) {
          const id = randomUUID();
          ids.push(id);
          await api.get(`/api/phone-calls/${id}`, t.as('u'));
          await api.get(`/embed/${id}`, null);
        }
      }
      const after = await now();
      const text = JSON.stringify(after.map((x) => x.labels));
      for (const needle of [...tenants.map((t) => t.id), ...ids, TOKEN]) expect(text).not.toContain(needle);
      // 80 requests on two routes (or unmatched) add at most a handful of series, never one per id.
      expect(labelSets(after, 'platform_http_requests_total').length - seriesBefore).toBeLessThanOrEqual(4);
      const perName = new Map<string, number>();
      // Histogram buckets multiply a family's series by a fixed bucket count; their _count stands for them.
      for (const x of after.filter((x) => !x.name.endsWith('_bucket'))) perName.set(x.name, (perName.get(x.name) ?? 0) + 1);
      for (const [name, series] of perName) expect(series, name).toBeLessThan(50);
    });
  });
});
