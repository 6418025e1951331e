import { beforeAll, describe, expect, it } from 'vitest';
import { client, useTestApp } from '../../support/app';
import { createStandardCalendar, seedCalendarTenant } from '../../support/calendars';
import { expectProblem } from '../../support/fixtures';

describe('POST /api/sla/calculate and process associations', () => {
  const ctx = useTestApp();
  const api = client(ctx);
  let t: Awaited<ReturnType<typeof seedCalendarTenant>>;

  beforeAll(async () => {
    t = await seedCalendarTenant(ctx);
    await createStandardCalendar(ctx, t.asOwner, 'ONE');
    await createStandardCalendar(ctx, t.asOwner, 'SUP', { newYork: true });
    await api.post('/api/business-calendars', t.asOwner, { calendarCode: 'OFF', name: 'inactive', active: false });
    await api.post('/api/business-calendars', t.asOwner, { calendarCode: 'EMPTY', name: 'no hours' });
    await api.post('/api/business-calendars', t.asOwner, { calendarCode: 'HALF', name: 'short days', businessDayMinutes: 240 });
    await api.post('/api/business-calendars/HALF/locations', t.asOwner, { locationCode: 'BER', name: 'B', timezone: 'Europe/Berlin' });
    await api.post('/api/business-calendars/HALF/locations/BER/business-hours', t.asOwner, { dayOfWeek: 1, startTime: '09:00', endTime: '17:00' });
    await api.put(`/api/tenants/${t.id}/users/outsider/capabilities/CALENDAR`, t.asOwner, { level: 'read-write' });
  });

  const calc = (body: unknown, who = t.asOwner) => api.post('/api/sla/calculate', who, body);

  it('calendarCode form: the budget runs to Friday’s close and resumes Monday across the DST change', async () => {
    const r = await calc({ calendarCode: 'ONE', receivedDateTime: '2025-03-28T16:30:00', receivedTimezone: 'Europe/Berlin', sla: { businessDays: 0, businessMinutes: 60 } });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toEqual({
      receivedDateTimeUtc: '2025-03-28T15:30:00.000Z',
      dueDateTimeUtc: '2025-03-31T07:30:00.000Z',
      dueDateTimeLocal: '2025-03-31T09:30:00.000+02:00',
      totalBusinessMinutesConsumed: 60,
      calendarCode: 'ONE',
      locationsUsed: ['BER'],
    });
  });

  it('businessDays count the calendar’s businessDayMinutes (480 by default, 240 on HALF)', async () => {
    const one = await calc({ calendarCode: 'ONE', receivedDateTime: '2025-04-07T09:00:00+02:00', sla: { businessDays: 1, businessMinutes: 0 } });
    expect(one.json).toMatchObject({ dueDateTimeUtc: '2025-04-07T15:00:00.000Z', totalBusinessMinutesConsumed: 480 });
    // Without receivedTimezone the local due date keeps the input's offset.
    expect(one.json.dueDateTimeLocal).toBe('2025-04-07T17:00:00.000+02:00');
    const half = await calc({ calendarCode: 'HALF', receivedDateTime: '2025-04-07T09:00:00', receivedTimezone: 'Europe/Berlin', sla: { businessDays: 1, businessMinutes: 0 } });
    expect(half.json).toMatchObject({ dueDateTimeUtc: '2025-04-07T11:00:00.000Z', totalBusinessMinutesConsumed: 240 });
  });

  it('locations combine as a union: Berlin closes, New York carries on; locationsUsed names both', async () => {
    const r = await calc({ calendarCode: 'SUP', receivedDateTime: '2025-04-04T16:30:00', receivedTimezone: 'Europe/Berlin', sla: { businessDays: 0, businessMinutes: 120 } });
    expect(r.json).toMatchObject({ dueDateTimeUtc: '2025-04-04T16:30:00.000Z', dueDateTimeLocal: '2025-04-04T18:30:00.000+02:00', locationsUsed: ['BER', 'NYC'] });
  });

  it('a zero budget received on a Saturday is the next opening, with no locations used', async () => {
    const r = await calc({ calendarCode: 'ONE', receivedDateTime: '2025-04-05T12:00:00', receivedTimezone: 'Europe/Berlin', sla: { businessDays: 0, businessMinutes: 0 } });
    expect(r.json).toMatchObject({ dueDateTimeUtc: '2025-04-07T07:00:00.000Z', totalBusinessMinutesConsumed: 0, locationsUsed: [] });
  });

  it('a closed holiday on the location moves the due date past it', async () => {
    await api.post('/api/business-calendars/ONE/locations/BER/holidays', t.asOwner, { date: '2025-04-08', name: 'Closed Tuesday' });
    const r = await calc({ calendarCode: 'ONE', receivedDateTime: '2025-04-07T16:00:00', receivedTimezone: 'Europe/Berlin', sla: { businessDays: 0, businessMinutes: 120 } });
    expect(r.json.dueDateTimeLocal).toBe('2025-04-09T10:00:00.000+02:00');
  });

  it('a recurring holiday entered years ago still applies (history before the received date is not needed, recurring ones are)', async () => {
    await api.post('/api/business-calendars/ONE/locations/BER/holidays', t.asOwner, { date: '2019-05-01', name: 'Labour Day', recurring: true });
    await api.post('/api/business-calendars/ONE/locations/BER/holidays', t.asOwner, { date: '2019-05-02', name: 'One-off in 2019' });
    const r = await calc({ calendarCode: 'ONE', receivedDateTime: '2025-04-30T16:00:00', receivedTimezone: 'Europe/Berlin', sla: { businessDays: 0, businessMinutes: 120 } });
    expect(r.json.dueDateTimeLocal).toBe('2025-05-02T10:00:00.000+02:00');
  });

  it('an inactive calendar is 409 calendar-inactive-calendar; a calendar without hours is 422 calendar-unreachable; unknown is 404', async () => {
    const body = { receivedDateTime: '2025-04-07T09:00:00Z', sla: { businessDays: 1, businessMinutes: 0 } };
    expectProblem(await calc({ ...body, calendarCode: 'OFF' }), 409, 'calendar-inactive-calendar');
    expectProblem(await calc({ ...body, calendarCode: 'EMPTY' }), 422, 'calendar-unreachable');
    expectProblem(await calc({ ...body, calendarCode: 'NOPE' }), 404, 'calendar-not-found');
  });

  it('request validation is 400 with field paths', async () => {
    const cases: Array<[unknown, string]> = [
      [{ calendarCode: 'ONE', processDefinitionKey: 'x', receivedDateTime: '2025-04-07T09:00:00Z', sla: {} }, 'json.calendarCode'],
      [{ receivedDateTime: '2025-04-07T09:00:00Z' }, 'json.calendarCode'],
      [{ calendarCode: 'ONE', receivedDateTime: '2025-04-07T09:00:00Z' }, 'json.sla'],
      [{ calendarCode: 'ONE', receivedDateTime: '2025-04-07T09:00:00', sla: {} }, 'json.receivedTimezone'],
      [{ calendarCode: 'ONE', receivedDateTime: '2025-04-07T09:00:00', receivedTimezone: 'Europe/Nowhere', sla: {} }, 'json.receivedTimezone'],
      [{ calendarCode: 'ONE', receivedDateTime: 'yesterday', receivedTimezone: 'UTC', sla: {} }, 'json.receivedDateTime'],
      [{ calendarCode: 'ONE', receivedDateTime: '2025-04-07T09:00:00Z', sla: { businessMinutes: -1 } }, 'json.sla.businessMinutes'],
      [{ calendarCode: 'ONE', receivedDateTime: '2025-04-07T09:00:00Z', sla: { businessDays: 1.5 } }, 'json.sla.businessDays'],
      [{ processDefinitionKey: 'x', receivedDateTime: '2025-04-07T09:00:00Z', sla: { businessDays: 1 } }, 'json.sla'],
    ];
    for (const [body, path] of cases) {
      const r = await calc(body);
      expectProblem(r, 400, 'validation-failed');
      expect(r.json.errors.map((e: { path: string }) => e.path), JSON.stringify(body)).toContain(path);
    }
  });

  it('process associations: POST creates with the spec fields and defaults; duplicate key 409; unknown calendar 422', async () => {
    const r = await api.post('/api/process-calendars', t.asOwner, { processDefinitionKey: 'invoice-approval', calendarCode: 'ONE', slaBusinessMinutes: 60, priority: 'HIGH' });
    expect(r.status, r.text).toBe(201);
    expect(r.json).toMatchObject({ id: expect.any(String), processDefinitionKey: 'invoice-approval', calendarCode: 'ONE', slaBusinessDays: 0, slaBusinessMinutes: 60, priority: 'HIGH', active: true });
    expectProblem(await api.post('/api/process-calendars', t.asOwner, { processDefinitionKey: 'invoice-approval', calendarCode: 'SUP' }), 409, 'process-calendar-exists');
    expectProblem(await api.post('/api/process-calendars', t.asOwner, { processDefinitionKey: 'other', calendarCode: 'NOPE' }), 422, 'unknown-calendar');
    const bad = await api.post('/api/process-calendars', t.asOwner, { processDefinitionKey: '', calendarCode: 'ONE', priority: 'URGENT', slaBusinessDays: -1 });
    expectProblem(bad, 400, 'validation-failed');
    expect(bad.json.errors.map((e: { path: string }) => e.path)).toEqual(
      expect.arrayContaining(['json.processDefinitionKey', 'json.priority', 'json.slaBusinessDays']),
    );
  });

  it('processDefinitionKey form uses the association’s calendar and budget', async () => {
    const r = await calc({ processDefinitionKey: 'invoice-approval', receivedDateTime: '2025-03-28T16:30:00', receivedTimezone: 'Europe/Berlin' });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ calendarCode: 'ONE', dueDateTimeUtc: '2025-03-31T07:30:00.000Z', totalBusinessMinutesConsumed: 60 });
    expectProblem(await calc({ processDefinitionKey: 'unknown', receivedDateTime: '2025-03-28T16:30:00Z' }), 404, 'process-calendar-not-found');
  });

  it('GET lists and gets associations; PUT replaces (calendar, budget, active) and renames; DELETE removes', async () => {
    expect((await api.get('/api/process-calendars', t.as('reader'))).json.map((a: { processDefinitionKey: string }) => a.processDefinitionKey)).toEqual(['invoice-approval']);
    expect((await api.get('/api/process-calendars/invoice-approval', t.as('reader'))).json.calendarCode).toBe('ONE');
    expectProblem(await api.get('/api/process-calendars/nope', t.asOwner), 404, 'process-calendar-not-found');

    const put = await api.put('/api/process-calendars/invoice-approval', t.asOwner, { calendarCode: 'SUP', slaBusinessDays: 2, priority: 'LOW' });
    expect(put.status, put.text).toBe(200);
    expect(put.json).toMatchObject({ processDefinitionKey: 'invoice-approval', calendarCode: 'SUP', slaBusinessDays: 2, slaBusinessMinutes: 0, priority: 'LOW' });
    expectProblem(await api.put('/api/process-calendars/invoice-approval', t.asOwner, { calendarCode: 'NOPE' }), 422, 'unknown-calendar');
    expectProblem(await api.put('/api/process-calendars/nope', t.asOwner, { calendarCode: 'ONE' }), 404, 'process-calendar-not-found');

    await api.post('/api/process-calendars', t.asOwner, { processDefinitionKey: 'taken', calendarCode: 'ONE' });
    expectProblem(await api.put('/api/process-calendars/invoice-approval', t.asOwner, { processDefinitionKey: 'taken', calendarCode: 'ONE' }), 409, 'process-calendar-exists');
    const renamed = await api.put('/api/process-calendars/invoice-approval', t.asOwner, { processDefinitionKey: 'invoice-v2', calendarCode: 'SUP', active: false });
    expect(renamed.json).toMatchObject({ processDefinitionKey: 'invoice-v2', active: false });

    expectProblem(await calc({ processDefinitionKey: 'invoice-v2', receivedDateTime: '2025-03-28T16:30:00Z' }), 409, 'process-calendar-inactive');
    expect((await api.del('/api/process-calendars/invoice-v2', t.asOwner)).status).toBe(204);
    expectProblem(await api.del('/api/process-calendars/invoice-v2', t.asOwner), 404, 'process-calendar-not-found');
  });

  it('guard SLA: a reader calculates and lists but cannot write; CALENDAR alone does not open SLA routes', async () => {
    const body = { calendarCode: 'ONE', receivedDateTime: '2025-04-07T09:00:00Z', sla: { businessMinutes: 1 } };
    expect((await calc(body, t.as('reader'))).status).toBe(200);
    expectProblem(await api.post('/api/process-calendars', t.as('reader'), { processDefinitionKey: 'r', calendarCode: 'ONE' }), 403, 'capability-write-required');
    expectProblem(await api.del('/api/process-calendars/taken', t.as('reader')), 403, 'capability-write-required');
    expectProblem(await calc(body, t.as('outsider')), 403, 'capability-not-granted');
    expectProblem(await api.get('/api/process-calendars', t.as('outsider')), 403, 'capability-not-granted');
    expect((await api.get('/api/business-calendars', t.as('outsider'))).status).toBe(200);
  });
});
