// The endpoint routes (docs/webhooks.md "Endpoints"): owners and operators only, a secret shown at
// creation and rotation and never again, sealed at rest; refused destinations; another tenant's
// records are 404 on every route; parallel rotations serialise; every error status answered.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_SECRET } from '../../../domain/webhooks/signing';
import { signingSecrets } from '../../../services/webhooks/endpoint-secrets';
import { client, OPERATOR } from '../../support/app';
import { expectProblem } from '../../support/fixtures';
import { captureLogger } from '../../support/phone';
import { seedWebhookTenant, useWebhookApp } from './webhook-world';

const logs = captureLogger('debug');
const ctx = useWebhookApp({ deps: { logger: logs.logger } });
const api = client(ctx);
const BASE = '/api/webhook-endpoints';
const URL_OK = 'http://127.0.0.1:9/hook';

describe('webhook endpoints', () => {
  it('an owner creates an endpoint; the secret (whsec_ + 32 bytes) is in that answer only, sealed at rest', async () => {
    const t = await seedWebhookTenant(ctx);
    const r = await api.post(BASE, t.asOwner, { url: URL_OK, description: 'CRM', eventTypes: ['form.instance.submitted', 'phone.call.ended'] });
    expect(r.status, r.text).toBe(201);
    expect(r.json).toMatchObject({ url: URL_OK, description: 'CRM', eventTypes: ['form.instance.submitted', 'phone.call.ended'], enabled: true, disabledReason: null, createdBy: t.owner });
    expect(r.json.secret).toMatch(WEBHOOK_SECRET);
    const secret = r.json.secret as string;

    const reads = [
      await api.call('PATCH', `${BASE}/${r.json.id}`, t.asOwner, { description: 'CRM inbox' }),
      await api.post(`${BASE}/${r.json.id}/test`, t.asOwner),
      await api.get(`${BASE}/${r.json.id}`, t.asOwner),
      await api.get(BASE, t.asOwner),
      await api.get(`${BASE}/${r.json.id}/deliveries`, t.asOwner),
    ];
    for (const read of reads) {
      expect([200, 202], read.text).toContain(read.status);
      expect(read.text).not.toContain(secret);
      expect(read.text).not.toContain('whsec_');
    }
    const rows = JSON.stringify([...(await ctx.db.sql`select * from tenant_secrets`), ...(await ctx.db.sql`select * from webhook_endpoints`)]);
    expect(rows).not.toContain(secret);
    expect(rows).not.toContain(secret.slice('whsec_'.length));
    expect(await signingSecrets(ctx.db.db, ctx.settings, { tenantId: t.id, endpointId: r.json.id, previousSecretExpiresAt: null, now: new Date() })).toEqual([secret]);
  });

  it('no secret reaches a log line', async () => {
    const t = await seedWebhookTenant(ctx);
    const created = await api.post(BASE, t.asOwner, { url: URL_OK });
    const rotated = await api.post(`${BASE}/${created.json.id}/rotate-secret`, t.asOwner);
    expect(rotated.status).toBe(200);
    const text = logs.text();
    expect(text).toContain(`"path":"${BASE}/${created.json.id}/rotate-secret"`);
    for (const secret of [created.json.secret, rotated.json.secret]) expect(text).not.toContain(secret);
    expect(text).not.toContain('whsec_');
  });

  it('every event type or all (null); operators manage any tenant\'s endpoints; members who are no owners get 403 owner-required', async () => {
    const t = await seedWebhookTenant(ctx);
    const all = await api.post(BASE, t.asOwner, { url: URL_OK });
    expect(all.json.eventTypes).toBeNull();
    const byOperator = await api.post(BASE, { user: OPERATOR, tenant: t.id }, { url: URL_OK, eventTypes: null });
    expect(byOperator.status, byOperator.text).toBe(201);
    const id = all.json.id as string;
    const member = t.member;
    for (const [method, path, body] of [
      ['POST', BASE, { url: URL_OK }],
      ['GET', BASE],
      ['GET', `${BASE}/${id}`],
      ['PATCH', `${BASE}/${id}`, { enabled: false }],
      ['DELETE', `${BASE}/${id}`],
      ['POST', `${BASE}/${id}/rotate-secret`],
      ['GET', `${BASE}/${id}/deliveries`],
      ['POST', `${BASE}/${id}/test`],
      ['POST', `/api/webhook-deliveries/${randomUUID()}/replay`],
    ] as const) {
      expectProblem(await api.call(method, path, member, body), 403, 'owner-required');
    }
    // The catalog is any member's to read.
    const types = await api.get('/api/webhook-event-types', member);
    expect(types.status).toBe(200);
  });

  it("another tenant's endpoint and delivery are 404 on every route", async () => {
    const a = await seedWebhookTenant(ctx);
    const b = await seedWebhookTenant(ctx);
    const endpoint = (await api.post(BASE, a.asOwner, { url: URL_OK })).json;
    const test = await api.post(`${BASE}/${endpoint.id}/test`, a.asOwner);
    expect(test.status, test.text).toBe(202);
    const id = endpoint.id as string;
    for (const [method, path, body, code] of [
      ['GET', `${BASE}/${id}`, undefined, 'webhook-endpoint-not-found'],
      ['PATCH', `${BASE}/${id}`, { enabled: false }, 'webhook-endpoint-not-found'],
      ['DELETE', `${BASE}/${id}`, undefined, 'webhook-endpoint-not-found'],
      ['POST', `${BASE}/${id}/rotate-secret`, undefined, 'webhook-endpoint-not-found'],
      ['GET', `${BASE}/${id}/deliveries`, undefined, 'webhook-endpoint-not-found'],
      ['POST', `${BASE}/${id}/test`, undefined, 'webhook-endpoint-not-found'],
      ['POST', `/api/webhook-deliveries/${test.json.id}/replay`, undefined, 'webhook-delivery-not-found'],
    ] as const) {
      expectProblem(await api.call(method, path, b.asOwner, body), 404, code);
    }
    expect((await api.get(BASE, b.asOwner)).json.items).toEqual([]);
    // Still there, untouched, for its own tenant.
    expect((await api.get(`${BASE}/${id}`, a.asOwner)).json.enabled).toBe(true);
  });

  it('400 for input the schema refuses: a relative or non-http URL, an unknown or unsubscribable type, an empty list, unknown fields, a bad id or cursor', async () => {
    const t = await seedWebhookTenant(ctx);
    for (const body of [
      {},
      { url: '/hook' },
      { url: 'hooks.example.com' },
      { url: 'ftp://127.0.0.1/hook' },
      { url: URL_OK, eventTypes: ['form.instance.unknown'] },
      { url: URL_OK, eventTypes: ['webhook.test'] },
      { url: URL_OK, eventTypes: [] },
      { url: URL_OK, secret: 'whsec_mine' },
      { url: `${URL_OK}\u0000` },
      { url: URL_OK, description: 'two\nlines' },
    ]) {
      expectProblem(await api.post(BASE, t.asOwner, body), 400, 'validation-failed');
    }
    expectProblem(await api.get(`${BASE}/not-a-uuid`, t.asOwner), 400, 'validation-failed');
    expectProblem(await api.get(`${BASE}?cursor=nonsense`, t.asOwner), 400, 'invalid-cursor');
  });

  it('422 webhook-destination-refused for every refused destination, at creation and on a URL change', async () => {
    const t = await seedWebhookTenant(ctx);
    const cases: Array<[string, string]> = [
      ['http://[::1]/hook', 'loopback'],
      ['http://[::ffff:127.0.0.1]/hook', 'ipv4-mapped'],
      ['http://10.0.0.8/hook', 'private'],
      ['http://192.168.1.20/hook', 'private'],
      ['http://169.254.169.254/latest/meta-data/', 'metadata'],
      ['http://169.254.3.4/', 'link-local'],
      ['http://[fe80::1]/', 'link-local'],
      ['http://224.0.0.5/', 'multicast'],
      ['http://0.0.0.0/', 'reserved'],
      ['https://user:pw@127.0.0.1/', 'credentials'],
    ];
    for (const [url, reason] of cases) {
      const r = await api.post(BASE, t.asOwner, { url });
      expectProblem(r, 422, 'webhook-destination-refused');
      expect(r.json.reason, url).toBe(reason);
    }
    const ok = await api.post(BASE, t.asOwner, { url: URL_OK });
    const moved = await api.call('PATCH', `${BASE}/${ok.json.id}`, t.asOwner, { url: 'http://10.1.1.1/' });
    expectProblem(moved, 422, 'webhook-destination-refused');
    expect((await api.get(`${BASE}/${ok.json.id}`, t.asOwner)).json.url).toBe(URL_OK);

    // http only with webhooks.allow-http (production's default is https only).
    ctx.settings['webhooks.allow-http'] = false;
    try {
      const r = await api.post(BASE, t.asOwner, { url: URL_OK });
      expectProblem(r, 422, 'webhook-destination-refused');
      expect(r.json.reason).toBe('scheme');
    } finally {
      ctx.settings['webhooks.allow-http'] = true;
    }
    // Without webhooks.allow-private-networks loopback is refused too, as an address or as a name
    // the system resolver answers with one (a name resolving to a private address: unit test).
    ctx.settings['webhooks.allow-private-networks'] = [];
    try {
      expect((await api.post(BASE, t.asOwner, { url: URL_OK })).json.reason).toBe('loopback');
      expect((await api.post(BASE, t.asOwner, { url: 'http://localhost:9/hook' })).json.reason).toBe('loopback');
    } finally {
      ctx.settings['webhooks.allow-private-networks'] = ['127.0.0.0/8'];
    }
  });

  it('PATCH changes what it is given; disabling stamps disabledAt, enabling clears the reason and the failure streak', async () => {
    const t = await seedWebhookTenant(ctx);
    const e = (await api.post(BASE, t.asOwner, { url: URL_OK, description: 'first' })).json;
    const changed = await api.call('PATCH', `${BASE}/${e.id}`, t.asOwner, { url: 'http://127.0.0.2:9/other', eventTypes: ['document.ready', 'document.ready'], description: null });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.json).toMatchObject({ url: 'http://127.0.0.2:9/other', eventTypes: ['document.ready'], description: null, enabled: true });
    const off = await api.call('PATCH', `${BASE}/${e.id}`, t.asOwner, { enabled: false });
    expect(off.json).toMatchObject({ enabled: false, disabledReason: null, disabledAt: expect.any(String) });
    await ctx.db.sql`update webhook_endpoints set disabled_reason = 'The endpoint answered 410 Gone', failing_since = now() where id = ${e.id}`;
    const on = await api.call('PATCH', `${BASE}/${e.id}`, t.asOwner, { enabled: true, eventTypes: null });
    expect(on.json).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null, failingSince: null, eventTypes: null });
  });

  it('rotation answers a new secret once and keeps the previous one signing for the overlap', async () => {
    const t = await seedWebhookTenant(ctx);
    const e = (await api.post(BASE, t.asOwner, { url: URL_OK })).json;
    const r = await api.post(`${BASE}/${e.id}/rotate-secret`, t.asOwner);
    expect(r.status, r.text).toBe(200);
    expect(r.json.secret).toMatch(WEBHOOK_SECRET);
    expect(r.json.secret).not.toBe(e.secret);
    const expires = new Date(r.json.endpoint.previousSecretExpiresAt).getTime();
    expect(expires - new Date(r.json.endpoint.secretRotatedAt).getTime()).toBeGreaterThan(23.9 * 3_600_000);
    const endpoint = { tenantId: t.id, endpointId: e.id as string, previousSecretExpiresAt: new Date(expires) };
    expect(await signingSecrets(ctx.db.db, ctx.settings, { ...endpoint, now: new Date() })).toEqual([r.json.secret, e.secret]);
    expect(await signingSecrets(ctx.db.db, ctx.settings, { ...endpoint, now: new Date(expires + 1) })).toEqual([r.json.secret]);
  });

  it('parallel rotations serialise on the endpoint: the last answer is current, an earlier one its previous', async () => {
    const t = await seedWebhookTenant(ctx);
    const e = (await api.post(BASE, t.asOwner, { url: URL_OK })).json;
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(Array.from({ length: 4 }, () => api.post(`${BASE}/${e.id}/rotate-secret`, t.asOwner)));
      for (const a of answers) expect(a.status, a.text).toBe(200);
      const secrets = answers.map((a) => a.json.secret as string);
      expect(new Set(secrets).size).toBe(4);
      const row = (await api.get(`${BASE}/${e.id}`, t.asOwner)).json;
      const [current, previous] = await signingSecrets(ctx.db.db, ctx.settings, { tenantId: t.id, endpointId: e.id, previousSecretExpiresAt: new Date(row.previousSecretExpiresAt), now: new Date() });
      expect(secrets).toContain(current);
      expect(secrets).toContain(previous);
      expect(previous).not.toBe(current);
    }
  });

  it('with rotation-overlap-hours 0 the old secret stops at once', async () => {
    const t = await seedWebhookTenant(ctx);
    const e = (await api.post(BASE, t.asOwner, { url: URL_OK })).json;
    ctx.settings['webhooks.rotation-overlap-hours'] = 0;
    try {
      const r = await api.post(`${BASE}/${e.id}/rotate-secret`, t.asOwner);
      expect(r.json.endpoint.previousSecretExpiresAt).toBeNull();
      expect(await signingSecrets(ctx.db.db, ctx.settings, { tenantId: t.id, endpointId: e.id, previousSecretExpiresAt: null, now: new Date() })).toEqual([r.json.secret]);
    } finally {
      ctx.settings['webhooks.rotation-overlap-hours'] = 24;
    }
  });

  it('503 secrets-unavailable without a master key, and no endpoint is left behind', async () => {
    const t = await seedWebhookTenant(ctx);
    const key = ctx.settings['secrets.master-key'];
    ctx.settings['secrets.master-key'] = undefined;
    try {
      expectProblem(await api.post(BASE, t.asOwner, { url: URL_OK }), 503, 'secrets-unavailable');
    } finally {
      ctx.settings['secrets.master-key'] = key;
    }
    expect((await api.get(BASE, t.asOwner)).json.items).toEqual([]);
  });

  it('lists newest first, keyset-paged', async () => {
    const t = await seedWebhookTenant(ctx);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await api.post(BASE, t.asOwner, { url: `${URL_OK}/${i}` })).json.id);
    const first = await api.get(`${BASE}?limit=2`, t.asOwner);
    expect(first.json.items.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[1]]);
    const second = await api.get(`${BASE}?limit=2&cursor=${first.json.nextCursor}`, t.asOwner);
    expect(second.json).toMatchObject({ items: [{ id: ids[0] }], nextCursor: null });
  });

  it('the delivery log lists newest first, keyset-paged, each delivery with its event', async () => {
    const t = await seedWebhookTenant(ctx);
    const e = (await api.post(BASE, t.asOwner, { url: URL_OK })).json;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await api.post(`${BASE}/${e.id}/test`, t.asOwner)).json.id);
    const first = await api.get(`${BASE}/${e.id}/deliveries?limit=2`, t.asOwner);
    expect(first.status, first.text).toBe(200);
    expect(first.json).toMatchObject({ limit: 2, nextCursor: expect.any(String) });
    expect(first.json.items.map((d: { id: string }) => d.id)).toEqual([ids[2], ids[1]]);
    expect(first.json.items[0]).toMatchObject({ endpointId: e.id, state: 'PENDING', attemptCount: 0, nextAttemptAt: null, attempts: [], event: { type: 'webhook.test', createdAt: expect.any(String) } });
    const second = await api.get(`${BASE}/${e.id}/deliveries?limit=2&cursor=${first.json.nextCursor}`, t.asOwner);
    expect(second.json).toMatchObject({ items: [{ id: ids[0] }], nextCursor: null });
    expectProblem(await api.get(`${BASE}/${e.id}/deliveries?cursor=nonsense`, t.asOwner), 400, 'invalid-cursor');
  });

  it('test and replay: 202 with a PENDING delivery and its process\'s outbox row; 409 while pending or when disabled', async () => {
    const t = await seedWebhookTenant(ctx);
    const e = (await api.post(BASE, t.asOwner, { url: URL_OK })).json;
    const test = await api.post(`${BASE}/${e.id}/test`, t.asOwner);
    expect(test.status, test.text).toBe(202);
    expect(test.json).toMatchObject({ endpointId: e.id, state: 'PENDING', attemptCount: 0, replayOf: null });
    const [row] = await ctx.db.sql`select verb, capability, workflow_type, workflow_id, args from outbox where business_key = ${test.json.id}`;
    expect(row).toMatchObject({ verb: 'start', capability: 'WEBHOOKS', workflow_type: 'webhookDelivery', workflow_id: `webhooks:${t.id}:${test.json.id}` });
    expect(row!.args).toEqual([{ tenantId: t.id, deliveryId: test.json.id }]);
    expectProblem(await api.post(`/api/webhook-deliveries/${test.json.id}/replay`, t.asOwner), 409, 'webhook-delivery-pending');
    expectProblem(await api.post(`/api/webhook-deliveries/${randomUUID()}/replay`, t.asOwner), 404, 'webhook-delivery-not-found');
    await ctx.db.sql`update webhook_deliveries set state = 'FAILED' where id = ${test.json.id}`;
    await api.call('PATCH', `${BASE}/${e.id}`, t.asOwner, { enabled: false });
    expectProblem(await api.post(`${BASE}/${e.id}/test`, t.asOwner), 409, 'webhook-endpoint-disabled');
    expectProblem(await api.post(`/api/webhook-deliveries/${test.json.id}/replay`, t.asOwner), 409, 'webhook-endpoint-disabled');
    await api.call('PATCH', `${BASE}/${e.id}`, t.asOwner, { enabled: true });
    const replay = await api.post(`/api/webhook-deliveries/${test.json.id}/replay`, t.asOwner);
    expect(replay.status, replay.text).toBe(202);
    expect(replay.json).toMatchObject({ replayOf: test.json.id, state: 'PENDING' });
    const log = (await api.get(`${BASE}/${e.id}/deliveries`, t.asOwner)).json.items;
    expect(log.map((d: { id: string }) => d.id)).toEqual([replay.json.id, test.json.id]);
    expect(log[0].event.id).toBe(log[1].event.id);
    expect(log[0].event).toMatchObject({ type: 'webhook.test', data: { endpointId: e.id, link: `https://platform.example.com/api/webhook-endpoints/${e.id}` } });
  });

  it('DELETE removes the endpoint with its secrets and log: 204, then 404', async () => {
    const t = await seedWebhookTenant(ctx);
    const e = (await api.post(BASE, t.asOwner, { url: URL_OK })).json;
    await api.post(`${BASE}/${e.id}/rotate-secret`, t.asOwner);
    await api.post(`${BASE}/${e.id}/test`, t.asOwner);
    expect((await api.del(`${BASE}/${e.id}`, t.asOwner)).status).toBe(204);
    expectProblem(await api.get(`${BASE}/${e.id}`, t.asOwner), 404, 'webhook-endpoint-not-found');
    expectProblem(await api.del(`${BASE}/${e.id}`, t.asOwner), 404, 'webhook-endpoint-not-found');
    expect(await ctx.db.sql`select name from tenant_secrets where name like ${`webhook:${e.id}%`}`).toHaveLength(0);
    expect(await ctx.db.sql`select id from webhook_deliveries where endpoint_id = ${e.id}`).toHaveLength(0);
  });

  it('the event catalog lists every type with an example of what a receiver gets', async () => {
    const t = await seedWebhookTenant(ctx);
    const r = await api.get('/api/webhook-event-types', t.asOwner);
    const types = r.json.map((e: { type: string }) => e.type);
    expect(types).toEqual(expect.arrayContaining(['form.instance.submitted', 'signature.instance.sealed', 'signature.recipient.signed', 'phone.call.ended', 'document.quarantined', 'webhook.test']));
    const test = r.json.find((e: { type: string }) => e.type === 'webhook.test');
    expect(test).toMatchObject({ subscribable: false, example: { type: 'webhook.test', timestamp: expect.any(String), data: { link: expect.stringMatching(/^https:\/\/platform\.example\.com\/api\//) } } });
  });
});
