import { beforeAll, describe, expect, it } from 'vitest';
import { client, useTestApp, type Who } from '../../support/app';
import { basic, createApiClient, createStandardCalendar, seedCalendarTenant } from '../../support/calendars';

/**
 * Tenant isolation of the calendar capability: every route that addresses a record (calendar,
 * location, hours, holiday, association) answers 404 for another tenant's record, through the
 * gateway identity and through an API client, and lists never show it.
 */
describe('calendar routes: a record of another tenant is 404', () => {
  const ctx = useTestApp();
  const api = client(ctx);
  let a: Awaited<ReturnType<typeof seedCalendarTenant>>;
  let b: Awaited<ReturnType<typeof seedCalendarTenant>>;
  let hoursId: string;
  let holidayId: string;
  let aClient: Record<string, string>;

  beforeAll(async () => {
    a = await seedCalendarTenant(ctx);
    b = await seedCalendarTenant(ctx);
    await createStandardCalendar(ctx, a.asOwner, 'ACAL');
    await createStandardCalendar(ctx, b.asOwner, 'BCAL');
    hoursId = (await api.get('/api/business-calendars/BCAL/locations/BER/business-hours', b.asOwner)).json[0].id;
    holidayId = (await api.post('/api/business-calendars/BCAL/locations/BER/holidays', b.asOwner, { date: '2025-06-02', name: 'B day' })).json.id;
    await api.post('/api/process-calendars', b.asOwner, { processDefinitionKey: 'bkey', calendarCode: 'BCAL', slaBusinessDays: 1 });
    const c = await createApiClient(ctx, a, [
      { code: 'CALENDAR', level: 'read-write' },
      { code: 'SLA', level: 'read-write' },
    ]);
    aClient = basic(c, a.id);
  });

  /** Every record route of the capability with a valid request, so only the tenant can make it 404. */
  const recordRoutes = (): Record<string, { path: string; body?: unknown }> => {
    const cal = '/api/business-calendars/BCAL';
    const loc = `${cal}/locations/BER`;
    return {
      'get /api/business-calendars/{code}': { path: cal },
      'put /api/business-calendars/{code}': { path: cal, body: { name: 'stolen' } },
      'delete /api/business-calendars/{code}': { path: cal },
      'get /api/business-calendars/{code}/availability': { path: `${cal}/availability?from=2025-04-07T00:00:00Z&to=2025-04-08T00:00:00Z` },
      'get /api/business-calendars/{code}/is-open': { path: `${cal}/is-open` },
      'get /api/business-calendars/{code}/locations': { path: `${cal}/locations` },
      'post /api/business-calendars/{code}/locations': { path: `${cal}/locations`, body: { locationCode: 'X', name: 'X', timezone: 'UTC' } },
      'get /api/business-calendars/{code}/locations/{loc}': { path: loc },
      'put /api/business-calendars/{code}/locations/{loc}': { path: loc, body: { name: 'X', timezone: 'UTC' } },
      'delete /api/business-calendars/{code}/locations/{loc}': { path: loc },
      'get /api/business-calendars/{code}/locations/{loc}/business-hours': { path: `${loc}/business-hours` },
      'post /api/business-calendars/{code}/locations/{loc}/business-hours': {
        path: `${loc}/business-hours`,
        body: { dayOfWeek: 1, startTime: '09:00', endTime: '10:00' },
      },
      'delete /api/business-calendars/{code}/locations/{loc}/business-hours/{id}': { path: `${loc}/business-hours/${hoursId}` },
      'get /api/business-calendars/{code}/locations/{loc}/holidays': { path: `${loc}/holidays` },
      'post /api/business-calendars/{code}/locations/{loc}/holidays': { path: `${loc}/holidays`, body: { date: '2025-01-02', name: 'x' } },
      'post /api/business-calendars/{code}/locations/{loc}/holidays/auto-import': { path: `${loc}/holidays/auto-import?year=2025` },
      'get /api/business-calendars/{code}/locations/{loc}/holidays/preview': { path: `${loc}/holidays/preview?countryCode=DE&year=2025` },
      'get /api/business-calendars/{code}/locations/{loc}/holidays/available-countries': { path: `${loc}/holidays/available-countries` },
      'delete /api/business-calendars/{code}/locations/{loc}/holidays/{id}': { path: `${loc}/holidays/${holidayId}` },
      'get /api/process-calendars/{key}': { path: '/api/process-calendars/bkey' },
      'put /api/process-calendars/{key}': { path: '/api/process-calendars/bkey', body: { calendarCode: 'ACAL' } },
      'delete /api/process-calendars/{key}': { path: '/api/process-calendars/bkey' },
    };
  };
  /** Collection routes: they address no record of B (checked below by what they show or create). */
  const collectionRoutes = new Set([
    'get /api/business-calendars',
    'post /api/business-calendars',
    'post /api/business-calendars/{code}',
    'get /api/process-calendars',
    'post /api/process-calendars',
    'post /api/sla/calculate',
  ]);

  const checkAll = async (who: Who | null, headers: Record<string, string> = {}) => {
    const doc = (await api.get('/openapi.json', null)).json;
    const routes = recordRoutes();
    let checked = 0;
    for (const [path, ops] of Object.entries<Record<string, unknown>>(doc.paths)) {
      if (!/^\/api\/(business-calendars|process-calendars|sla)(\/|$)/.test(path)) continue;
      for (const method of Object.keys(ops)) {
        const key = `${method} ${path}`;
        if (collectionRoutes.has(key)) continue;
        const route = routes[key];
        expect(route, `no cross-tenant case for ${key}`).toBeDefined();
        const res = await api.call(method.toUpperCase(), route!.path, who, route!.body, headers);
        expect(res.status, `${key}: ${res.text}`).toBe(404);
        checked++;
      }
    }
    expect(checked).toBe(Object.keys(routes).length);
  };

  it('every record route answers 404 to tenant A’s owner for tenant B’s records', async () => {
    await checkAll(a.asOwner);
  });

  it('every record route answers 404 to tenant A’s API client (HTTP Basic) for tenant B’s records', async () => {
    await checkAll(null, aClient);
  });

  it('B’s records are untouched, and lists and SLA calculations of A never reach them', async () => {
    expect((await api.get('/api/business-calendars/BCAL', b.asOwner)).json.name).toBe('Calendar BCAL');
    expect((await api.get('/api/business-calendars/BCAL/locations/BER/holidays', b.asOwner)).json).toHaveLength(1);
    expect((await api.get('/api/process-calendars/bkey', b.asOwner)).status).toBe(200);
    expect((await api.get('/api/business-calendars', a.asOwner)).json.map((c: { calendarCode: string }) => c.calendarCode)).toEqual(['ACAL']);
    expect((await api.get('/api/process-calendars', a.asOwner)).json).toEqual([]);
    const body = { receivedDateTime: '2025-04-07T09:00:00Z' };
    expect((await api.post('/api/sla/calculate', a.asOwner, { ...body, calendarCode: 'BCAL', sla: { businessDays: 1 } })).status).toBe(404);
    expect((await api.post('/api/sla/calculate', null, { ...body, processDefinitionKey: 'bkey' }, aClient)).status).toBe(404);
    expect((await api.post('/api/process-calendars', a.asOwner, { processDefinitionKey: 'k', calendarCode: 'BCAL' })).json.code).toBe('unknown-calendar');
  });

  it('codes are per tenant: A may create its own BCAL, which leaves B’s alone', async () => {
    expect((await api.post('/api/business-calendars/BCAL', a.asOwner, { name: 'A’s own' })).status).toBe(201);
    expect((await api.get('/api/business-calendars/BCAL', b.asOwner)).json.name).toBe('Calendar BCAL');
    expect((await api.get('/api/business-calendars/BCAL/locations', a.asOwner)).json).toEqual([]);
  });

  it('a member of A presenting X-Tenant-Id B is 403 not-a-member', async () => {
    const r = await api.get('/api/business-calendars', { user: a.owner, tenant: b.id });
    expect(r.status).toBe(403);
    expect(r.json.code).toBe('not-a-member');
  });
});
