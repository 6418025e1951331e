// The compiled-calendar cache behind POST /api/sla/calculate, availability, is-open and the
// calculateSlaDueDate activity: a change to a calendar is seen by the very next request, on the
// node that made it and on another node over the same database (docs/calendars.md "Compiled
// calendar cache").
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCalendarActivities } from '../../../activities/calendars';
import { createApp } from '../../../api/app';
import { createDatabase, type Database } from '../../../db/client';
import { CompiledCalendarCache } from '../../../services/calendars/compiled-calendars';
import { client, useTestApp, type TestContext } from '../../support/app';
import { createStandardCalendar, seedCalendarTenant } from '../../support/calendars';
import { expectProblem } from '../../support/fixtures';

describe('compiled calendars cached per rules version', () => {
  const ctx = useTestApp();
  const api = client(ctx);
  // A second API node: its own connection pool and its own cache, the same database.
  const nodeB = {} as TestContext;
  let databaseB: Database;
  let cacheB: CompiledCalendarCache;
  let t: Awaited<ReturnType<typeof seedCalendarTenant>>;

  beforeAll(async () => {
    databaseB = createDatabase(ctx.db.url, { max: 4 });
    cacheB = new CompiledCalendarCache(16);
    nodeB.deps = { ...ctx.deps, db: databaseB.db, compiledCalendars: cacheB };
    nodeB.app = createApp(nodeB.deps);
    t = await seedCalendarTenant(ctx);
  });
  afterAll(async () => {
    await databaseB?.close();
  });

  const cacheA = () => ctx.deps.compiledCalendars!;
  const base = (code: string) => `/api/business-calendars/${code}`;

  /** Due date of 120 business minutes received Thursday 2025-04-17 16:00 in Berlin (before Easter). */
  const due = async (code: string, node: TestContext = ctx, minutes = 120) => {
    const r = await client(node).post('/api/sla/calculate', t.asOwner, {
      calendarCode: code,
      receivedDateTime: '2025-04-17T16:00:00',
      receivedTimezone: 'Europe/Berlin',
      sla: { businessMinutes: minutes },
    });
    expect(r.status, r.text).toBe(200);
    return r.json as { dueDateTimeLocal: string; locationsUsed: string[] };
  };

  it('a due date is computed on the cached compiled calendar; a repeated request reuses it', async () => {
    const { id } = await createStandardCalendar(ctx, t.asOwner, 'KEEP');
    expect((await due('KEEP')).dueDateTimeLocal).toBe('2025-04-18T10:00:00.000+02:00');
    const held = cacheA().peek({ tenantId: t.id, calendarId: id });
    expect(held).toBeDefined();
    expect((await due('KEEP')).dueDateTimeLocal).toBe('2025-04-18T10:00:00.000+02:00');
    expect(cacheA().peek({ tenantId: t.id, calendarId: id })).toBe(held);
  });

  it('a holiday added is reflected by the next due date at once', async () => {
    const { id } = await createStandardCalendar(ctx, t.asOwner, 'HOL');
    expect((await due('HOL')).dueDateTimeLocal).toBe('2025-04-18T10:00:00.000+02:00');
    const before = cacheA().peek({ tenantId: t.id, calendarId: id })!.rulesVersion;
    const r = await api.post(`${base('HOL')}/locations/BER/holidays`, t.asOwner, { date: '2025-04-18', name: 'Good Friday' });
    expect(r.status, r.text).toBe(201);
    expect((await due('HOL')).dueDateTimeLocal).toBe('2025-04-21T10:00:00.000+02:00');
    expect(cacheA().peek({ tenantId: t.id, calendarId: id })!.rulesVersion).toBeGreaterThan(before);
    // And removed again.
    const list = await api.get(`${base('HOL')}/locations/BER/holidays`, t.asOwner);
    expect((await api.del(`${base('HOL')}/locations/BER/holidays/${list.json[0].id}`, t.asOwner)).status).toBe(204);
    expect((await due('HOL')).dueDateTimeLocal).toBe('2025-04-18T10:00:00.000+02:00');
  });

  it('a holiday import is reflected by the next due date at once', async () => {
    await createStandardCalendar(ctx, t.asOwner, 'IMP');
    expect((await due('IMP')).dueDateTimeLocal).toBe('2025-04-18T10:00:00.000+02:00');
    const r = await api.post(`${base('IMP')}/locations/BER/holidays/auto-import?year=2025`, t.asOwner);
    expect(r.status, r.text).toBe(200);
    // Good Friday and Easter Monday (Berlin's public holidays) are closed now.
    expect((await due('IMP')).dueDateTimeLocal).toBe('2025-04-22T10:00:00.000+02:00');
  });

  it('changed business hours are reflected by the next due date at once', async () => {
    await createStandardCalendar(ctx, t.asOwner, 'HRS');
    // Received Friday 16:00: 60 minutes on Friday, the rest on Monday.
    const friday = async () =>
      (
        await api.post('/api/sla/calculate', t.asOwner, {
          calendarCode: 'HRS',
          receivedDateTime: '2025-04-11T16:00:00',
          receivedTimezone: 'Europe/Berlin',
          sla: { businessMinutes: 120 },
        })
      ).json.dueDateTimeLocal;
    expect(await friday()).toBe('2025-04-14T10:00:00.000+02:00');
    const saturday = await api.post(`${base('HRS')}/locations/BER/business-hours`, t.asOwner, { dayOfWeek: 6, startTime: '10:00', endTime: '14:00' });
    expect(saturday.status, saturday.text).toBe(201);
    expect(await friday()).toBe('2025-04-12T11:00:00.000+02:00');
    expect((await api.del(`${base('HRS')}/locations/BER/business-hours/${saturday.json.id}`, t.asOwner)).status).toBe(204);
    expect(await friday()).toBe('2025-04-14T10:00:00.000+02:00');
  });

  it('a location disabled, or reordered, is reflected by the next due date at once', async () => {
    await createStandardCalendar(ctx, t.asOwner, 'LOC', { newYork: true });
    // Berlin closes at 17:00, New York carries on.
    expect(await due('LOC')).toMatchObject({ dueDateTimeLocal: '2025-04-17T18:00:00.000+02:00', locationsUsed: ['BER', 'NYC'] });
    const nyc = { name: 'New York', timezone: 'America/New_York', country: 'US', region: 'NY' };
    expect((await api.put(`${base('LOC')}/locations/NYC`, t.asOwner, { ...nyc, sortOrder: 0 })).status).toBe(200);
    expect((await due('LOC')).locationsUsed).toEqual(['NYC', 'BER']);
    expect((await api.put(`${base('LOC')}/locations/NYC`, t.asOwner, { ...nyc, sortOrder: 0, enabled: false })).status).toBe(200);
    expect(await due('LOC')).toMatchObject({ dueDateTimeLocal: '2025-04-18T10:00:00.000+02:00', locationsUsed: ['BER'] });
  });

  it('a calendar deactivated (or given a shorter business day) is reflected by the next due date at once', async () => {
    await createStandardCalendar(ctx, t.asOwner, 'ACT');
    const days = async () =>
      api.post('/api/sla/calculate', t.asOwner, {
        calendarCode: 'ACT',
        receivedDateTime: '2025-04-14T09:00:00',
        receivedTimezone: 'Europe/Berlin',
        sla: { businessDays: 1 },
      });
    expect((await days()).json.dueDateTimeLocal).toBe('2025-04-14T17:00:00.000+02:00');
    expect((await api.put(base('ACT'), t.asOwner, { name: 'Calendar ACT', businessDayMinutes: 240 })).status).toBe(200);
    expect((await days()).json.dueDateTimeLocal).toBe('2025-04-14T13:00:00.000+02:00');
    expect((await api.put(base('ACT'), t.asOwner, { name: 'Calendar ACT', active: false })).status).toBe(200);
    expectProblem(await days(), 409, 'calendar-inactive-calendar');
    expect((await api.put(base('ACT'), t.asOwner, { name: 'Calendar ACT', active: true })).status).toBe(200);
    expect((await days()).status).toBe(200);
  });

  it('a calendar deleted and created again under its code is the new calendar, not the cached one', async () => {
    await createStandardCalendar(ctx, t.asOwner, 'NEW');
    expect((await due('NEW')).dueDateTimeLocal).toBe('2025-04-18T10:00:00.000+02:00');
    expect((await api.del(base('NEW'), t.asOwner)).status).toBe(204);
    expectProblem(await api.post('/api/sla/calculate', t.asOwner, { calendarCode: 'NEW', receivedDateTime: '2025-04-17T16:00:00Z', sla: { businessMinutes: 1 } }), 404, 'calendar-not-found');
    await api.post('/api/business-calendars', t.asOwner, { calendarCode: 'NEW', name: 'again' });
    await api.post(`${base('NEW')}/locations`, t.asOwner, { locationCode: 'UTC', name: 'UTC', timezone: 'UTC' });
    await api.post(`${base('NEW')}/locations/UTC/business-hours`, t.asOwner, { dayOfWeek: 4, startTime: '00:00', endTime: '24:00' });
    expect(await due('NEW')).toMatchObject({ dueDateTimeLocal: '2025-04-17T18:00:00.000+02:00', locationsUsed: ['UTC'] });
  });

  it('processDefinitionKey form: the association’s budget is read per request, the calendar from the cache', async () => {
    await createStandardCalendar(ctx, t.asOwner, 'PROC');
    const assoc = { calendarCode: 'PROC', slaBusinessDays: 0, slaBusinessMinutes: 120 };
    expect((await api.post('/api/process-calendars', t.asOwner, { processDefinitionKey: 'cached-claims', ...assoc })).status).toBe(201);
    const byKey = async () =>
      api.post('/api/sla/calculate', t.asOwner, { processDefinitionKey: 'cached-claims', receivedDateTime: '2025-04-17T16:00:00', receivedTimezone: 'Europe/Berlin' });
    expect((await byKey()).json.dueDateTimeLocal).toBe('2025-04-18T10:00:00.000+02:00');
    expect((await api.put('/api/process-calendars/cached-claims', t.asOwner, { ...assoc, slaBusinessMinutes: 180 })).status).toBe(200);
    expect((await byKey()).json.dueDateTimeLocal).toBe('2025-04-18T11:00:00.000+02:00');
    await api.post(`${base('PROC')}/locations/BER/holidays`, t.asOwner, { date: '2025-04-18', name: 'Good Friday' });
    expect((await byKey()).json.dueDateTimeLocal).toBe('2025-04-21T11:00:00.000+02:00');
    expect((await api.put('/api/process-calendars/cached-claims', t.asOwner, { ...assoc, active: false })).status).toBe(200);
    expectProblem(await byKey(), 409, 'process-calendar-inactive');
  });

  it('availability and is-open see a change at once too', async () => {
    await createStandardCalendar(ctx, t.asOwner, 'AV');
    const day = async () =>
      (await api.get(`${base('AV')}/availability?from=2025-04-18T00:00:00Z&to=2025-04-19T00:00:00Z`, t.asOwner)).json as unknown[];
    const open = async () => (await api.get(`${base('AV')}/is-open?at=2025-04-18T10:00:00Z`, t.asOwner)).json.open as boolean;
    expect(await day()).toHaveLength(1);
    expect(await open()).toBe(true);
    await api.post(`${base('AV')}/locations/BER/holidays`, t.asOwner, { date: '2025-04-18', name: 'Good Friday' });
    expect(await day()).toEqual([]);
    expect(await open()).toBe(false);
  });

  it('two nodes: a change made through node A is seen by node B’s very next due date', async () => {
    const { id } = await createStandardCalendar(ctx, t.asOwner, 'TWO', { newYork: true });
    // Both nodes hold the calendar compiled.
    expect((await due('TWO', ctx)).dueDateTimeLocal).toBe('2025-04-17T18:00:00.000+02:00');
    expect((await due('TWO', nodeB)).dueDateTimeLocal).toBe('2025-04-17T18:00:00.000+02:00');
    const heldByB = cacheB.peek({ tenantId: t.id, calendarId: id })!;
    expect((await due('TWO', nodeB)).dueDateTimeLocal).toBe('2025-04-17T18:00:00.000+02:00');
    expect(cacheB.peek({ tenantId: t.id, calendarId: id })).toBe(heldByB);

    const through = (path: string, body: unknown) => api.post(path, t.asOwner, body);
    // A holiday in New York, made through node A: B's next due date waits for Berlin's Friday.
    expect((await through(`${base('TWO')}/locations/NYC/holidays`, { date: '2025-04-17', name: 'Closed Thursday' })).status).toBe(201);
    expect((await due('TWO', nodeB)).dueDateTimeLocal).toBe('2025-04-18T10:00:00.000+02:00');
    expect(cacheB.peek({ tenantId: t.id, calendarId: id })!.rulesVersion).toBeGreaterThan(heldByB.rulesVersion);
    // And node A, which made it, agrees.
    expect((await due('TWO', ctx)).dueDateTimeLocal).toBe('2025-04-18T10:00:00.000+02:00');

    // Made through node B, seen by node A.
    expect((await client(nodeB).put(`${base('TWO')}/locations/BER`, t.asOwner, { name: 'Berlin', timezone: 'Europe/Berlin', enabled: false })).status).toBe(200);
    // Only New York is left: closed Thursday, open Friday from 09:00 New York time.
    expect(await due('TWO', ctx)).toMatchObject({ dueDateTimeLocal: '2025-04-18T17:00:00.000+02:00', locationsUsed: ['NYC'] });
  });

  it('the worker’s calculateSlaDueDate activity with its own cache sees a change made through the API at once', async () => {
    await createStandardCalendar(ctx, t.asOwner, 'WRK');
    const workerCache = new CompiledCalendarCache(8);
    const { calculateSlaDueDate } = createCalendarActivities({ db: ctx.db.db, settings: ctx.settings, logger: pino({ level: 'silent' }), compiledCalendars: workerCache });
    const run = () =>
      calculateSlaDueDate({ tenantId: t.id, calendarCode: 'WRK', receivedDateTime: '2025-04-17T16:00:00', receivedTimezone: 'Europe/Berlin', sla: { businessMinutes: 120 } });
    expect((await run()).dueDateTimeLocal).toBe('2025-04-18T10:00:00.000+02:00');
    expect(workerCache.size).toBe(1);
    await api.post(`${base('WRK')}/locations/BER/holidays`, t.asOwner, { date: '2025-04-18', name: 'Good Friday' });
    expect((await run()).dueDateTimeLocal).toBe('2025-04-21T10:00:00.000+02:00');
  });

  it('a received time long before the cached calendar was first used still sees its holidays', async () => {
    await createStandardCalendar(ctx, t.asOwner, 'PAST');
    await api.post(`${base('PAST')}/locations/BER/holidays`, t.asOwner, { date: '2020-04-10', name: 'Good Friday 2020' });
    expect((await due('PAST')).dueDateTimeLocal).toBe('2025-04-18T10:00:00.000+02:00');
    const r = await api.post('/api/sla/calculate', t.asOwner, {
      calendarCode: 'PAST',
      receivedDateTime: '2020-04-09T16:00:00',
      receivedTimezone: 'Europe/Berlin',
      sla: { businessMinutes: 120 },
    });
    expect(r.json.dueDateTimeLocal).toBe('2020-04-13T10:00:00.000+02:00');
  });
});
