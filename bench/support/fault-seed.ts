// The faults bench's tenant, made over HTTP on the API node before any fault: FORMS, SLA and
// CALENDAR subscribed and granted to the owner, a published INBOUND form (`store` handling) and
// its embed token, a calendar open around the clock with a process association, and running SLA
// clocks.
export const TENANT = 'faults';
export const OWNER = { 'X-User-Id': 'faults-owner', 'X-Tenant-Id': TENANT } as const;

export interface FaultSeed {
  embedToken: string;
  formCode: string;
  clockIds: string[];
}

async function call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = OWNER): Promise<any> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`seed ${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

export async function seedFaultTenant(base: string, clocks: number): Promise<FaultSeed> {
  await call(base, 'POST', '/api/tenants', { id: TENANT, name: 'Faults' }, { 'X-User-Id': OWNER['X-User-Id'] });
  for (const code of ['FORMS', 'SLA', 'CALENDAR']) {
    await call(base, 'PUT', `/api/tenants/${TENANT}/capabilities/${code}`);
    await call(base, 'PUT', `/api/tenants/${TENANT}/users/${OWNER['X-User-Id']}/capabilities/${code}`, { level: 'read-write' });
  }

  const draftSchema = { title: 'Contact', fields: [{ key: 'email', type: 'email', label: 'Email', required: true }] };
  const def = await call(base, 'POST', '/api/form-definitions', { name: 'Fault intake', kind: 'INBOUND', draftSchema, submissionHandling: 'store' });
  await call(base, 'POST', `/api/form-definitions/${def.id}/versions`);
  await call(base, 'POST', `/api/form-definitions/${def.id}/sign-off`);
  const published = await call(base, 'POST', `/api/form-definitions/${def.id}/versions/1/publish`);
  const { token } = await call(base, 'GET', `/api/form-definitions/${def.id}/embed-token`);

  await call(base, 'POST', '/api/business-calendars', { calendarCode: 'ALWAYS', name: 'Always open' });
  await call(base, 'POST', '/api/business-calendars/ALWAYS/locations', { locationCode: 'UTC', name: 'UTC', timezone: 'UTC' });
  for (const dayOfWeek of [1, 2, 3, 4, 5, 6, 7]) {
    await call(base, 'POST', '/api/business-calendars/ALWAYS/locations/UTC/business-hours', { dayOfWeek, startTime: '00:00', endTime: '24:00' });
  }
  await call(base, 'POST', '/api/process-calendars', { processDefinitionKey: 'faults', calendarCode: 'ALWAYS' });
  const clockIds: string[] = [];
  for (let i = 0; i < clocks; i++) {
    // Thirty business days: no clock reaches a warning, let alone its end, while the bench runs.
    const clock = await call(base, 'POST', '/api/sla-clocks', { processCalendarKey: 'faults', budget: { days: 30, minutes: 0 }, subject: { kind: 'ticket', id: `T-${i}` } });
    clockIds.push(clock.id);
  }
  return { embedToken: token, formCode: published.code, clockIds };
}
