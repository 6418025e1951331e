import { beforeAll, describe, expect, it } from 'vitest';
import { client, useTestApp } from '../../support/app';
import { seedCalendarTenant } from '../../support/calendars';
import { expectProblem } from '../../support/fixtures';

describe('business calendars: create, list, get, update, delete by calendarCode', () => {
  const ctx = useTestApp();
  const api = client(ctx);
  let t: Awaited<ReturnType<typeof seedCalendarTenant>>;

  beforeAll(async () => {
    t = await seedCalendarTenant(ctx);
  });

  it('POST /business-calendars/{code} creates with the spec fields, businessDayMinutes defaulting to 480', async () => {
    const r = await api.post('/api/business-calendars/EU-SUPPORT', t.asOwner, { name: 'EU support', description: 'First line' });
    expect(r.status, r.text).toBe(201);
    expect(r.json).toMatchObject({
      id: expect.any(String),
      calendarCode: 'EU-SUPPORT',
      name: 'EU support',
      description: 'First line',
      active: true,
      businessDayMinutes: 480,
    });
    expect(new Date(r.json.createdAt).toISOString()).toBe(r.json.createdAt);
    expect(r.json.updatedAt).toBe(r.json.createdAt);
  });

  it('POST /business-calendars (code in the body) creates too, with a given businessDayMinutes', async () => {
    const r = await api.post('/api/business-calendars', t.asOwner, { calendarCode: 'US', name: 'US', businessDayMinutes: 450, active: false });
    expect(r.status, r.text).toBe(201);
    expect(r.json).toMatchObject({ calendarCode: 'US', businessDayMinutes: 450, active: false, description: null });
  });

  it('a duplicate calendarCode in the tenant is 409 calendar-exists (both create forms)', async () => {
    expectProblem(await api.post('/api/business-calendars/EU-SUPPORT', t.asOwner, { name: 'again' }), 409, 'calendar-exists');
    expectProblem(await api.post('/api/business-calendars', t.asOwner, { calendarCode: 'US', name: 'again' }), 409, 'calendar-exists');
  });

  it('a body calendarCode that differs from the path code is 400 with the field path', async () => {
    const r = await api.post('/api/business-calendars/ABC', t.asOwner, { calendarCode: 'XYZ', name: 'x' });
    expectProblem(r, 400, 'validation-failed');
    expect(r.json.errors).toEqual([{ path: 'json.calendarCode', message: expect.any(String) }]);
  });

  it('bad input is 400 naming the fields: code shape, empty name, businessDayMinutes out of range', async () => {
    const r = await api.post('/api/business-calendars', t.asOwner, { calendarCode: '-bad code', name: '', businessDayMinutes: 2000 });
    expectProblem(r, 400, 'validation-failed');
    const paths = r.json.errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['json.calendarCode', 'json.name', 'json.businessDayMinutes']));
    expectProblem(await api.get('/api/business-calendars/bad%20code', t.asOwner), 400, 'validation-failed');
  });

  it('NUL characters anywhere in a body are 400 with the field path, never a database error', async () => {
    const r = await api.post('/api/business-calendars', t.asOwner, { calendarCode: 'NUL', name: 'a\u0000b' });
    expectProblem(r, 400, 'validation-failed');
    expect(r.json.errors).toEqual([{ path: 'json.name', message: expect.any(String) }]);
    const h = await api.post('/api/process-calendars', t.asOwner, { processDefinitionKey: 'k\u0000', calendarCode: 'EU-SUPPORT' });
    expect(h.json.errors[0].path).toBe('json.processDefinitionKey');
    expectProblem(await api.get('/api/process-calendars/k%00', t.asOwner), 400, 'validation-failed');
  });

  it('a processDefinitionKey its own path would refuse is refused on create and by the SLA request too', async () => {
    for (const key of ['line\nbreak', 'bell\u0007', 'del\u007f']) {
      const created = await api.post('/api/process-calendars', t.asOwner, { processDefinitionKey: key, calendarCode: 'EU-SUPPORT' });
      expectProblem(created, 400, 'validation-failed');
      expect(created.json.errors[0].path).toBe('json.processDefinitionKey');
    }
    const sla = await api.post('/api/sla/calculate', t.asOwner, { processDefinitionKey: 'tab\tkey', receivedDateTime: '2025-03-28T16:30:00Z' });
    expectProblem(sla, 400, 'validation-failed');
  });

  it('GET lists by calendarCode and GET /{code} answers one; an unknown code is 404 calendar-not-found', async () => {
    const list = await api.get('/api/business-calendars', t.asOwner);
    expect(list.status).toBe(200);
    expect(list.json.map((c: { calendarCode: string }) => c.calendarCode)).toEqual(['EU-SUPPORT', 'US']);
    const one = await api.get('/api/business-calendars/US', t.as('reader'));
    expect(one.status).toBe(200);
    expect(one.json.name).toBe('US');
    expectProblem(await api.get('/api/business-calendars/NOPE', t.asOwner), 404, 'calendar-not-found');
  });

  it('PUT replaces the fields, keeps businessDayMinutes when omitted and bumps updatedAt', async () => {
    const before = (await api.get('/api/business-calendars/US', t.asOwner)).json;
    const r = await api.put('/api/business-calendars/US', t.asOwner, { name: 'United States', description: 'NA', active: true });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ id: before.id, calendarCode: 'US', name: 'United States', description: 'NA', active: true, businessDayMinutes: 450 });
    expect(Date.parse(r.json.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    const changed = await api.put('/api/business-calendars/US', t.asOwner, { name: 'United States', businessDayMinutes: 420 });
    expect(changed.json.businessDayMinutes).toBe(420);
  });

  it('PUT with another calendarCode renames; renaming onto a taken code is 409; unknown code 404', async () => {
    const r = await api.put('/api/business-calendars/US', t.asOwner, { calendarCode: 'NA', name: 'North America' });
    expect(r.status, r.text).toBe(200);
    expect(r.json.calendarCode).toBe('NA');
    expectProblem(await api.get('/api/business-calendars/US', t.asOwner), 404, 'calendar-not-found');
    expectProblem(await api.put('/api/business-calendars/NA', t.asOwner, { calendarCode: 'EU-SUPPORT', name: 'x' }), 409, 'calendar-exists');
    expectProblem(await api.put('/api/business-calendars/NOPE', t.asOwner, { name: 'x' }), 404, 'calendar-not-found');
  });

  it('DELETE removes the calendar with its locations and hours; a second delete is 404', async () => {
    await api.post('/api/business-calendars/GONE', t.asOwner, { name: 'gone' });
    await api.post('/api/business-calendars/GONE/locations', t.asOwner, { locationCode: 'L1', name: 'L1', timezone: 'UTC' });
    await api.post('/api/business-calendars/GONE/locations/L1/business-hours', t.asOwner, { dayOfWeek: 1, startTime: '09:00', endTime: '17:00' });
    expect((await api.del('/api/business-calendars/GONE', t.asOwner)).status).toBe(204);
    expectProblem(await api.get('/api/business-calendars/GONE', t.asOwner), 404, 'calendar-not-found');
    const left = await ctx.db.sql`select count(*)::int as n from calendar_locations where location_code = 'L1'`;
    expect(left[0]!.n).toBe(0);
    expectProblem(await api.del('/api/business-calendars/GONE', t.asOwner), 404, 'calendar-not-found');
  });

  it('a calendar a process association uses cannot be deleted (409 calendar-in-use) until the association goes', async () => {
    await api.post('/api/business-calendars/USED', t.asOwner, { name: 'used' });
    const a = await api.post('/api/process-calendars', t.asOwner, { processDefinitionKey: 'uses-it', calendarCode: 'USED', slaBusinessDays: 1 });
    expect(a.status, a.text).toBe(201);
    expectProblem(await api.del('/api/business-calendars/USED', t.asOwner), 409, 'calendar-in-use');
    expect((await api.del('/api/process-calendars/uses-it', t.asOwner)).status).toBe(204);
    expect((await api.del('/api/business-calendars/USED', t.asOwner)).status).toBe(204);
  });

  it('guard CALENDAR: a read grant reads but cannot write (403 capability-write-required); no grant is 403 capability-not-granted', async () => {
    expect((await api.get('/api/business-calendars', t.as('reader'))).status).toBe(200);
    expectProblem(await api.post('/api/business-calendars/R1', t.as('reader'), { name: 'x' }), 403, 'capability-write-required');
    expectProblem(await api.del('/api/business-calendars/EU-SUPPORT', t.as('reader')), 403, 'capability-write-required');
    expectProblem(await api.get('/api/business-calendars', t.as('outsider')), 403, 'capability-not-granted');
  });
});
