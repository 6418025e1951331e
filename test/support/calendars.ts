import { expect } from 'vitest';
import { client, type TestContext, type Who } from './app';
import { seedTenant } from './fixtures';

export interface ApiClientCredentials {
  clientId: string;
  secret: string;
}

export const basic = (c: ApiClientCredentials, tenant: string): Record<string, string> => ({
  Authorization: `Basic ${Buffer.from(`${c.clientId}:${c.secret}`).toString('base64')}`,
  'X-Tenant-Id': tenant,
});

/** Creates an API client as the owner and gives it the grants asked for, through the API. */
export async function createApiClient(
  ctx: TestContext,
  tenant: { id: string; asOwner: Who },
  grants: Array<{ code: string; level: 'read' | 'read-write' }> = [],
  name = 'erp connector',
): Promise<ApiClientCredentials> {
  const api = client(ctx);
  const r = await api.post(`/api/tenants/${tenant.id}/api-clients`, tenant.asOwner, { name });
  expect(r.status, r.text).toBe(201);
  for (const g of grants) {
    const granted = await api.put(`/api/tenants/${tenant.id}/users/${r.json.clientId}/capabilities/${g.code}`, tenant.asOwner, {
      level: g.level,
    });
    expect(granted.status, granted.text).toBe(200);
  }
  return { clientId: r.json.clientId, secret: r.json.secret };
}

/**
 * A tenant subscribed to CALENDAR and SLA whose owner holds read-write on both, with `reader`
 * (read grants) and `outsider` (a member without grants).
 */
export async function seedCalendarTenant(ctx: TestContext) {
  const t = await seedTenant(ctx, { members: ['reader', 'outsider'], subscribe: ['CALENDAR', 'SLA'] });
  const api = client(ctx);
  for (const code of ['CALENDAR', 'SLA']) {
    const own = await api.put(`/api/tenants/${t.id}/users/${t.owner}/capabilities/${code}`, t.asOwner, { level: 'read-write' });
    expect(own.status, own.text).toBe(200);
    const read = await api.put(`/api/tenants/${t.id}/users/reader/capabilities/${code}`, t.asOwner, { level: 'read' });
    expect(read.status, read.text).toBe(200);
  }
  return t;
}

const weekdays = [1, 2, 3, 4, 5];

/**
 * Calendar `code` with location BER (Europe/Berlin, Mon-Fri 09:00-17:00) and, with `newYork`,
 * NYC (America/New_York, Mon-Fri 09:00-17:00), through the API as `who`.
 */
export async function createStandardCalendar(ctx: TestContext, who: Who, code: string, opts: { newYork?: boolean } = {}) {
  const api = client(ctx);
  const cal = await api.post('/api/business-calendars', who, { calendarCode: code, name: `Calendar ${code}` });
  expect(cal.status, cal.text).toBe(201);
  const locations = [{ locationCode: 'BER', name: 'Berlin', timezone: 'Europe/Berlin', country: 'DE', region: 'BE', sortOrder: 1 }];
  if (opts.newYork) locations.push({ locationCode: 'NYC', name: 'New York', timezone: 'America/New_York', country: 'US', region: 'NY', sortOrder: 2 });
  for (const l of locations) {
    const r = await api.post(`/api/business-calendars/${code}/locations`, who, l);
    expect(r.status, r.text).toBe(201);
    for (const dayOfWeek of weekdays) {
      const h = await api.post(`/api/business-calendars/${code}/locations/${l.locationCode}/business-hours`, who, {
        dayOfWeek,
        startTime: '09:00',
        endTime: '17:00',
      });
      expect(h.status, h.text).toBe(201);
    }
  }
  return cal.json as { id: string; calendarCode: string };
}
