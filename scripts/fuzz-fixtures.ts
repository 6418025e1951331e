// The records the fuzzer needs and only the server can make (ids, tokens, keys), created through the
// API before Schemathesis runs, and the parameters that hand them to each operation
// (scripts/fuzz.ts). Operations that destroy a record get a sacrificial one of their own, so no
// fixture dies before the operations that need it were fuzzed.
import { randomBytes } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';

/** Schemathesis parameter overrides: `path.id`, `header.x-embed-token`, ... */
export type Params = Record<string, string | number>;

export interface FixturePlan {
  /** First matching path template wins. */
  byPath: Array<[RegExp, Params]>;
  /** `METHOD /path` overrides, for operations given a sacrificial record or another kind of record. */
  byOperation: Record<string, Params>;
}

export const TENANT = 'acme';
export const OWNER = 'alice';

type Json = Record<string, unknown>;

export function apiClient(base: string) {
  async function send(method: string, path: string, init: { body?: BodyInit; headers?: Record<string, string>; as?: string }) {
    const res = await fetch(base + path, { method, body: init.body, headers: { 'X-User-Id': init.as ?? OWNER, 'X-Tenant-Id': TENANT, ...init.headers } });
    if (res.status >= 300) throw new Error(`fixture ${method} ${path}: ${res.status} ${await res.text()}`);
    const text = await res.text();
    return (text ? JSON.parse(text) : {}) as Json;
  }
  return {
    call: (method: string, path: string, body?: unknown, as?: string) =>
      send(method, path, { as, body: body === undefined ? undefined : JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }),
    /** Multipart upload: the fields first, then the file part `file`. */
    upload: (path: string, fields: Record<string, string>, file: Blob, filename: string, headers: Record<string, string> = {}) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      form.append('file', file, filename);
      return send('POST', path, { body: form, headers });
    },
  };
}
type Api = ReturnType<typeof apiClient>;

const textFile = (text: string) => new Blob([text], { type: 'text/plain' });

async function onePagePdf() {
  const doc = await PDFDocument.create();
  doc.addPage([595.28, 841.89]).drawText('Fuzz contract', { x: 72, y: 760, size: 24 });
  return new Blob([Buffer.from(await doc.save())], { type: 'application/pdf' });
}

/** The tenant the OpenAPI examples name: owner with every capability, calendar, location, process key. */
export async function seedTenant(api: Api) {
  await api.call('POST', '/api/tenants', { id: TENANT, name: 'Acme' });
  for (const code of ['CALENDAR', 'SLA', 'PHONE', 'FORMS', 'SIGNATURES', 'EMAIL']) {
    await api.call('PUT', `/api/tenants/${TENANT}/capabilities/${code}`);
    await api.call('PUT', `/api/tenants/${TENANT}/users/${OWNER}/capabilities/${code}`, { level: 'read-write' });
  }
  await api.call('POST', '/api/business-calendars', { calendarCode: 'EU-SUPPORT', name: 'EU support' });
  await api.call('POST', '/api/business-calendars/EU-SUPPORT/locations', { locationCode: 'BER', name: 'Berlin', timezone: 'Europe/Berlin' });
  await api.call('POST', '/api/process-calendars', { processDefinitionKey: 'invoice-approval', calendarCode: 'EU-SUPPORT', slaBusinessDays: 2 });
}

async function calendarFixtures(api: Api): Promise<FixturePlan> {
  const loc = '/api/business-calendars/EU-SUPPORT/locations/BER';
  const hours = await api.call('POST', `${loc}/business-hours`, { dayOfWeek: 1, startTime: '09:00', endTime: '17:00' });
  const holiday = await api.call('POST', `${loc}/holidays`, { date: '2026-12-24', name: 'Christmas Eve' });
  await api.call('POST', '/api/business-calendars', { calendarCode: 'FUZZ-GONE', name: 'Deleted by the fuzzer' });
  await api.call('POST', '/api/business-calendars/EU-SUPPORT/locations', { locationCode: 'GONE', name: 'Deleted by the fuzzer', timezone: 'Europe/Berlin' });
  // A PUT with another code renames the record: the replacing PUTs get records of their own.
  await api.call('POST', '/api/business-calendars', { calendarCode: 'FUZZ-RENAMED', name: 'Renamed by the fuzzer' });
  await api.call('POST', '/api/business-calendars/EU-SUPPORT/locations', { locationCode: 'MOVED', name: 'Renamed by the fuzzer', timezone: 'Europe/Berlin' });
  await api.call('POST', '/api/process-calendars', { processDefinitionKey: 'fuzz-renamed', calendarCode: 'EU-SUPPORT', slaBusinessDays: 1 });
  const base = '/api/business-calendars/{code}/locations/{loc}';
  return {
    byPath: [
      ['^/api/business-calendars/\\{code\\}/locations/\\{loc\\}', { 'path.code': 'EU-SUPPORT', 'path.loc': 'BER' }],
      ['^/api/business-calendars/\\{code\\}', { 'path.code': 'EU-SUPPORT' }],
      ['^/api/process-calendars/\\{key\\}', { 'path.key': 'invoice-approval' }],
    ].map(([re, p]) => [new RegExp(re as string), p as Params]),
    byOperation: {
      [`DELETE ${base}/business-hours/{id}`]: { 'path.code': 'EU-SUPPORT', 'path.loc': 'BER', 'path.id': hours.id as string },
      [`DELETE ${base}/holidays/{id}`]: { 'path.code': 'EU-SUPPORT', 'path.loc': 'BER', 'path.id': holiday.id as string },
      [`DELETE ${base}`]: { 'path.code': 'EU-SUPPORT', 'path.loc': 'GONE' },
      'DELETE /api/business-calendars/{code}': { 'path.code': 'FUZZ-GONE' },
      'PUT /api/business-calendars/{code}': { 'path.code': 'FUZZ-RENAMED' },
      [`PUT ${base}`]: { 'path.code': 'EU-SUPPORT', 'path.loc': 'MOVED' },
      'PUT /api/process-calendars/{key}': { 'path.key': 'fuzz-renamed' },
    },
  };
}

async function publishedForm(api: Api, kind: 'INBOUND' | 'OUTBOUND', name: string) {
  const form = await api.call('POST', '/api/form-definitions', { name, kind, draftSchema: { title: name, fields: [{ key: 'name', type: 'text', label: 'Name' }] } });
  await api.call('POST', `/api/form-definitions/${form.id}/versions`);
  await api.call('POST', `/api/form-definitions/${form.id}/sign-off`);
  await api.call('POST', `/api/form-definitions/${form.id}/versions/1/publish`);
  return form as { id: string; code: string };
}

/** The recipient's one-time code, read from the mail catcher the stack sends through. */
async function otpCode(mailUrl: string, to: string) {
  for (let i = 0; i < 100; i++) {
    const mails = (await (await fetch(`${mailUrl}/messages.json`)).json()) as Array<{ to: string[]; text: string }>;
    const code = mails.filter((m) => m.to.includes(to)).map((m) => /\b(\d{6})\b/.exec(m.text)?.[1]).find(Boolean);
    if (code) return code;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('fixture: no one-time code arrived');
}

async function formFixtures(api: Api, mailUrl: string): Promise<FixturePlan> {
  const form = await publishedForm(api, 'INBOUND', 'Fuzz form');
  const spare = await publishedForm(api, 'INBOUND', 'Rotated and retired by the fuzzer');
  const deleted = await api.call('POST', '/api/form-definitions', { name: 'Deleted by the fuzzer', kind: 'INBOUND' });
  const purged = await api.call('POST', '/api/form-definitions', { name: 'Purged by the fuzzer', kind: 'INBOUND' });
  const instance = await api.call('POST', '/api/form-instances', { definitionId: form.id });
  const cancelled = await api.call('POST', '/api/form-instances', { definitionId: form.id });
  const subscription = await api.call('POST', '/api/form-event-subscriptions', { formCode: form.code, eventType: 'submitted', workflowType: 'fuzzSubscriber' });

  const { token: embedToken } = (await api.call('GET', `/api/form-definitions/${form.id}/embed-token`)) as { token: string };
  const session = `emb_${randomBytes(18).toString('base64url')}`;
  const attachment = await api.upload('/api/public/documents', {}, textFile('attachment'), 'note.txt', { 'X-Embed-Token': embedToken, 'X-Embed-Session': session });

  const outbound = await publishedForm(api, 'OUTBOUND', 'Fuzz outbound form');
  const email = 'recipient@example.com';
  const sent = (await api.call('POST', `/api/form-definitions/${outbound.id}/send`, { recipient: { email, name: 'Rita Recipient' } })) as { token: string };
  await api.call('POST', `/api/public/form-instances/${sent.token}/otp`);
  const verified = await api.call('POST', `/api/public/form-instances/${sent.token}/verify`, { code: await otpCode(mailUrl, email) });
  const recipient = { 'path.token': sent.token, 'header.authorization': `Bearer ${verified.accessToken as string}` };

  const spareId = { 'path.id': spare.id };
  return {
    byPath: [
      ['^/api/form-definitions/by-code/', { 'path.code': form.code }],
      ['^/api/form-definitions/\\{id\\}', { 'path.id': form.id, 'path.v': 1 }],
      ['^/api/form-instances/\\{id\\}', { 'path.id': instance.id as string }],
      ['^/api/form-event-subscriptions/\\{id\\}', { 'path.id': subscription.id as string }],
      ['^/(api/public/)?embed/\\{token\\}', { 'path.token': embedToken }],
      ['^/api/public/documents', { 'header.x-embed-token': embedToken, 'header.x-embed-session': session, 'path.docId': attachment.id as string }],
      ['^/(api/public/form-instances|respond)/\\{token\\}', recipient],
    ].map(([re, p]) => [new RegExp(re as string), p as Params]),
    byOperation: {
      'PUT /api/form-definitions/{id}/outbound-config': { 'path.id': outbound.id },
      'POST /api/form-definitions/{id}/send': { 'path.id': outbound.id },
      'POST /api/form-definitions/{id}/embed-token/rotate': spareId,
      'POST /api/form-definitions/{id}/retire': spareId,
      'POST /api/form-definitions/{id}/unretire': spareId,
      'DELETE /api/form-definitions/{id}': { 'path.id': deleted.id as string },
      'DELETE /api/form-definitions/{id}/purge': { 'path.id': purged.id as string },
      'POST /api/form-instances/{id}/cancel': { 'path.id': cancelled.id as string },
      'POST /api/form-event-subscriptions': { 'body.formCode': form.code },
    },
  };
}

async function documentFixtures(api: Api): Promise<FixturePlan> {
  const upload = (name: string) =>
    api.upload('/api/documents', { processRef: `fuzz-${name}`, kind: 'FORM_ATTACHMENT', capability: 'FORMS' }, textFile(name), `${name}.txt`);
  const [kept, deleted, deletedInternally] = [await upload('kept'), await upload('deleted'), await upload('deleted-internally')];
  return {
    byPath: [[/^\/api\/(internal\/)?documents\/\{docId\}/, { 'path.docId': kept.id as string }]],
    byOperation: {
      'DELETE /api/documents/{docId}': { 'path.docId': deleted.id as string },
      'DELETE /api/internal/documents/{docId}': { 'path.docId': deletedInternally.id as string },
    },
  };
}

async function signatureFixtures(api: Api): Promise<FixturePlan> {
  const base = '/api/signature-definitions';
  const draftSchema = {
    document: { key: '00000000-0000-4000-8000-000000000000', name: 'contract.pdf', pageCount: 1 },
    signers: [{ id: 'employee', label: 'Employee', order: 1 }],
    fields: [{ id: 'f1', signerId: 'employee', type: 'SIGNATURE', page: 1, x: 72, y: 600, w: 180, h: 50 }],
    variables: [],
    routing: 'sequential',
  };
  const sig = await api.call('POST', base, { name: 'Fuzz signing', draftSchema });
  const source = await api.upload(`${base}/${sig.id}/document`, {}, await onePagePdf(), 'contract.pdf');
  await api.call('POST', `${base}/${sig.id}/versions`);
  await api.call('POST', `${base}/${sig.id}/sign-off`);
  await api.call('POST', `${base}/${sig.id}/versions/1/publish`);
  const deleted = await api.call('POST', base, { name: 'Deleted by the fuzzer' });
  const purged = await api.call('POST', base, { name: 'Purged by the fuzzer' });
  // Campaigns of the published definition: one kept open for the reads, the remind and the public
  // session; one to cancel; one to sign through each public path (signing closes a link).
  const campaign = async (who: string) =>
    api.call('POST', '/api/signature-instances', { definitionId: sig.id, recipients: [{ signerId: 'employee', name: 'Fuzz Signer', email: `${who}@example.com` }] });
  const tokenOf = (c: Json) => (c.recipients as Array<{ token: string }>)[0]!.token;
  const kept = await campaign('kept');
  const cancelled = await campaign('cancelled');
  const signed = await campaign('signed');
  const legacy = await api.call('POST', '/api/signatures', { definitionId: sig.id, recipient: { name: 'Fuzz Legacy', email: 'legacy@example.com' } });
  return {
    byPath: [
      ['^/api/signature-definitions/by-code/', { 'path.code': sig.code as string }],
      ['^/api/signature-definitions/\\{id\\}', { 'path.id': sig.id as string, 'path.v': 1, 'path.key': source.key as string }],
      ['^/api/signature-instances/\\{id\\}', { 'path.id': kept.id as string, 'path.signerId': 'employee' }],
      ['^/api/public/sign-instance/\\{token\\}', { 'path.token': tokenOf(kept) }],
      ['^/api/public/sign/\\{token\\}', { 'path.token': tokenOf(legacy) }],
      ['^/sign/\\{token\\}', { 'path.token': tokenOf(kept) }],
    ].map(([re, p]) => [new RegExp(re as string), p as Params]),
    byOperation: {
      'DELETE /api/signature-definitions/{id}': { 'path.id': deleted.id as string },
      'DELETE /api/signature-definitions/{id}/purge': { 'path.id': purged.id as string },
      'POST /api/signature-instances/{id}/cancel': { 'path.id': cancelled.id as string },
      'POST /api/public/sign-instance/{token}': { 'path.token': tokenOf(signed) },
    },
  };
}

async function phoneFixtures(api: Api): Promise<FixturePlan> {
  await api.call('PUT', '/api/phone-settings', { defaultAssistantId: 'fuzz-assistant', defaultPhoneNumberId: 'fuzz-number' });
  const number = await api.call('POST', '/api/phone-numbers', { provider: 'vapi' });
  const call = await api.call('POST', '/api/phone-calls', { customerNumber: '+14155550100' });
  return {
    byPath: [
      [/^\/api\/phone-numbers\/\{id\}/, { 'path.id': number.id as string }],
      [/^\/api\/phone-calls\/\{id\}/, { 'path.id': call.id as string }],
    ],
    byOperation: {},
  };
}

/**
 * Access requests need a capability the requester does not hold: a catalog entry FUZZ the tenant
 * subscribes and nobody is granted. Approve, deny and cancel each get their own request.
 */
async function accessFixtures(api: Api): Promise<FixturePlan> {
  await api.call('POST', '/api/capabilities', { code: 'FUZZ', name: 'Fuzz', route: '/fuzz', tier: 'FREE' });
  await api.call('POST', '/api/capabilities', { code: 'FUZZGONE', name: 'Deleted by the fuzzer', route: '/fuzz-gone', tier: 'FREE' });
  await api.call('PUT', `/api/tenants/${TENANT}/capabilities/FUZZ`);
  const request = async (user: string) => {
    if (user !== OWNER) await api.call('PUT', `/api/tenants/${TENANT}/members/${user}`);
    return (await api.call('POST', '/api/access-requests', { capabilityCode: 'FUZZ', requestedLevel: 'read' }, user)).id as string;
  };
  const invitation = await api.call('POST', `/api/tenants/${TENANT}/invitations`, {});
  const revoked = await api.call('POST', `/api/tenants/${TENANT}/invitations`, {});
  const apiClient = await api.call('POST', `/api/tenants/${TENANT}/api-clients`, { name: 'Deleted by the fuzzer' });
  // An owner and a grant of their own for the removals: the fixture owner alice may be demoted or
  // ungranted by the operations fuzzed before them.
  for (const user of ['olivia', 'dave']) await api.call('PUT', `/api/tenants/${TENANT}/members/${user}`);
  await api.call('PUT', `/api/tenants/${TENANT}/owners/olivia`);
  await api.call('PUT', `/api/tenants/${TENANT}/users/dave/capabilities/SLA`, { level: 'read' });
  return {
    byPath: [
      [/^\/api\/invitations\/\{token\}/, { 'path.token': invitation.token as string }],
      [/^\/api\/tenants\/\{t\}/, { 'path.t': TENANT }],
    ],
    byOperation: {
      'POST /api/access-requests/{id}/cancel': { 'path.id': await request(OWNER) },
      'POST /api/org/access-requests/{id}/approve': { 'path.id': await request('bob') },
      'POST /api/org/access-requests/{id}/deny': { 'path.id': await request('carol') },
      'DELETE /api/capabilities/{code}': { 'path.code': 'FUZZGONE' },
      'DELETE /api/tenants/{t}/invitations/{id}': { 'path.t': TENANT, 'path.id': revoked.id as string },
      'DELETE /api/tenants/{t}/api-clients/{clientId}': { 'path.t': TENANT, 'path.clientId': apiClient.clientId as string },
      'DELETE /api/tenants/{t}/owners/{u}': { 'path.t': TENANT, 'path.u': 'olivia' },
      'DELETE /api/tenants/{t}/users/{u}/capabilities/{code}': { 'path.t': TENANT, 'path.u': 'dave', 'path.code': 'SLA' },
    },
  };
}

/** An SLA clock on the example process calendar; stop and cancel get one each. */
async function slaClockFixtures(api: Api): Promise<FixturePlan> {
  const start = async () => (await api.call('POST', '/api/sla-clocks', { processCalendarKey: 'invoice-approval', budget: { days: 2 }, subject: { kind: 'invoice', id: 'INV-1' } })).id as string;
  const kept = await start();
  return {
    byPath: [[/^\/api\/sla-clocks\/\{id\}/, { 'path.id': kept }]],
    byOperation: {
      'POST /api/sla-clocks/{id}/stop': { 'path.id': await start() },
      'DELETE /api/sla-clocks/{id}': { 'path.id': await start() },
    },
  };
}

/**
 * A webhook endpoint at a local port nothing listens on (the fuzz stack allows http and loopback):
 * its deliveries fail and wait for retries, which is all the routes need. DELETE gets its own.
 */
async function webhookFixtures(api: Api): Promise<FixturePlan> {
  const create = async () => (await api.call('POST', '/api/webhook-endpoints', { url: 'http://127.0.0.1:9/fuzz', description: 'Fuzz receiver' })).id as string;
  const kept = await create();
  const delivery = await api.call('POST', `/api/webhook-endpoints/${kept}/test`);
  return {
    byPath: [
      [/^\/api\/webhook-endpoints\/\{id\}/, { 'path.id': kept }],
      [/^\/api\/webhook-deliveries\/\{id\}/, { 'path.id': delivery.id as string }],
    ],
    byOperation: { 'DELETE /api/webhook-endpoints/{id}': { 'path.id': await create() } },
  };
}

export async function createFixtures(api: Api, mailUrl: string): Promise<FixturePlan> {
  const plans = [
    await calendarFixtures(api),
    await formFixtures(api, mailUrl),
    await documentFixtures(api),
    await signatureFixtures(api),
    await phoneFixtures(api),
    await accessFixtures(api),
    await slaClockFixtures(api),
    await webhookFixtures(api),
  ];
  return {
    byPath: plans.flatMap((p) => p.byPath),
    byOperation: Object.assign({}, ...plans.map((p) => p.byOperation)),
  };
}
