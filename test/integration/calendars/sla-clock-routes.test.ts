// SLA clock routes without a worker, on an injected clock: start, read, list, pause, resume,
// stop, cancel; every error status; tenant isolation; what the triggers write for the process.
import { beforeAll, describe, expect, it } from 'vitest';
import { client, useTestApp } from '../../support/app';
import { basic, createApiClient, createStandardCalendar, seedCalendarTenant } from '../../support/calendars';
import { expectProblem } from '../../support/fixtures';

const CLOCKS = '/api/sla-clocks';

describe('SLA clock routes', () => {
  // Monday 7 April 2025, 09:30 in Berlin (07:30Z): the standard calendar (Mon-Fri 09:00-17:00) is open.
  let now = new Date('2025-04-07T07:30:00Z');
  const ctx = useTestApp({ deps: { clock: () => now } });
  const api = client(ctx);
  let t: Awaited<ReturnType<typeof seedCalendarTenant>>;
  let other: Awaited<ReturnType<typeof seedCalendarTenant>>;

  const start = (body: Record<string, unknown> = {}, who = t.asOwner) =>
    api.post(CLOCKS, who, { processCalendarKey: 'tickets', receivedAt: '2025-04-07T07:00:00Z', budget: { days: 0, minutes: 60 }, subject: { kind: 'ticket', id: 'T-1' }, ...body });
  const started = async (body: Record<string, unknown> = {}) => {
    const r = await start(body);
    expect(r.status, r.text).toBe(201);
    return r.json as { id: string; dueAt: string };
  };
  const outboxOf = (clockId: string) =>
    ctx.db.sql<{ verb: string; signal_name: string | null; signal_args: unknown }[]>`
      select verb, signal_name, signal_args from outbox where capability = 'SLA' and business_key = ${clockId} order by seq`;

  beforeAll(async () => {
    t = await seedCalendarTenant(ctx);
    other = await seedCalendarTenant(ctx);
    await createStandardCalendar(ctx, t.asOwner, 'SUP');
    await createStandardCalendar(ctx, t.asOwner, 'ALT');
    await api.post('/api/business-calendars', t.asOwner, { calendarCode: 'EMPTY', name: 'no hours' });
    for (const [key, calendarCode, active] of [['tickets', 'SUP', true], ['dormant', 'SUP', false], ['nohours', 'EMPTY', true], ['moving', 'SUP', true]] as const) {
      const r = await api.post('/api/process-calendars', t.asOwner, { processDefinitionKey: key, calendarCode, active });
      expect(r.status, r.text).toBe(201);
    }
    await createStandardCalendar(ctx, other.asOwner, 'SUP');
    await api.post('/api/process-calendars', other.asOwner, { processDefinitionKey: 'tickets', calendarCode: 'SUP' });
  });

  it('POST starts a RUNNING clock: due date as /sla/calculate gives it, warnings to come, elapsed and remaining now, its process enqueued', async () => {
    const r = await start({ warnAt: [75, 50] });
    expect(r.status, r.text).toBe(201);
    expect(r.json).toMatchObject({
      processCalendarKey: 'tickets',
      calendarCode: 'SUP',
      subject: { kind: 'ticket', id: 'T-1' },
      state: 'RUNNING',
      receivedAt: '2025-04-07T07:00:00.000Z',
      startedAt: '2025-04-07T07:00:00.000Z',
      budget: { days: 0, minutes: 60, totalMinutes: 60 },
      warnAt: [50, 75],
      dueAt: '2025-04-07T08:00:00.000Z',
      pausedAt: null,
      elapsedBusinessMinutes: 30,
      remainingBusinessMinutes: 30,
      warnings: [],
      breachedAt: null,
      createdBy: t.owner,
    });
    expect(r.json.history.map((e: { kind: string }) => e.kind)).toEqual(['started']);
    // The clock brings its own budget; the association gives the calendar.
    const direct = await api.post('/api/sla/calculate', t.asOwner, { calendarCode: 'SUP', receivedDateTime: '2025-04-07T07:00:00Z', sla: { businessMinutes: 60 } });
    expect(direct.json.dueDateTimeUtc).toBe(r.json.dueAt);
    expect(await outboxOf(r.json.id)).toEqual([{ verb: 'start', signal_name: null, signal_args: null }]);
    expect((await api.get(`${CLOCKS}/${r.json.id}`, t.as('reader'))).json).toMatchObject({ id: r.json.id, state: 'RUNNING' });
  });

  it('receivedAt defaults to now; budget days count the calendar\'s businessDayMinutes', async () => {
    const r = await start({ receivedAt: undefined, budget: { days: 1 } });
    expect(r.json).toMatchObject({ receivedAt: now.toISOString(), budget: { days: 1, minutes: 0, totalMinutes: 480 }, dueAt: '2025-04-08T07:30:00.000Z' });
  });

  it('across the spring-forward weekend in Berlin: received Friday 16:30 CET with an hour, due Monday 09:30 CEST (as /sla/calculate); paused Friday 16:45, resumed Monday 09:00: due 09:45', async () => {
    now = new Date('2025-03-28T15:45:00Z');
    const clock = await started({ receivedAt: '2025-03-28T15:30:00Z' });
    expect(clock.dueAt).toBe('2025-03-31T07:30:00.000Z');
    const calc = await api.post('/api/sla/calculate', t.asOwner, { calendarCode: 'SUP', receivedDateTime: '2025-03-28T16:30:00', receivedTimezone: 'Europe/Berlin', sla: { businessMinutes: 60 } });
    expect(calc.json.dueDateTimeUtc).toBe(clock.dueAt);
    expect((await api.post(`${CLOCKS}/${clock.id}/pause`, t.asOwner)).json).toMatchObject({ state: 'PAUSED', elapsedBusinessMinutes: 15 });
    now = new Date('2025-03-31T07:00:00Z');
    expect((await api.post(`${CLOCKS}/${clock.id}/resume`, t.asOwner)).json).toMatchObject({ dueAt: '2025-03-31T07:45:00.000Z', remainingBusinessMinutes: 45 });
  });

  it('pause and resume: paused business time (Monday 09:30 to Tuesday 09:30 Berlin: one business day) moves the due date by it', async () => {
    now = new Date('2025-04-07T07:30:00Z');
    const clock = await started();
    const paused = await api.post(`${CLOCKS}/${clock.id}/pause`, t.asOwner);
    expect(paused.json).toMatchObject({ state: 'PAUSED', dueAt: null, pausedAt: '2025-04-07T07:30:00.000Z', elapsedBusinessMinutes: 30 });
    now = new Date('2025-04-08T07:30:00Z');
    expect((await api.get(`${CLOCKS}/${clock.id}`, t.asOwner)).json).toMatchObject({ state: 'PAUSED', elapsedBusinessMinutes: 30, remainingBusinessMinutes: 30 });
    const resumed = await api.post(`${CLOCKS}/${clock.id}/resume`, t.asOwner);
    expect(resumed.json).toMatchObject({ state: 'RUNNING', dueAt: '2025-04-08T08:00:00.000Z', pausedAt: null });
    expect(Date.parse(resumed.json.dueAt) - Date.parse(clock.dueAt)).toBe(24 * 3_600_000);
    expect(resumed.json.history.map((e: { kind: string; at: string }) => [e.kind, e.at])).toEqual([
      ['started', '2025-04-07T07:30:00.000Z'],
      ['warning', '2025-04-07T07:30:00.000Z'], // 50 % of the hour was reached at the pause
      ['paused', '2025-04-07T07:30:00.000Z'],
      ['resumed', '2025-04-08T07:30:00.000Z'],
    ]);
    const signals = (await outboxOf(clock.id)).filter((r) => r.verb === 'signal');
    expect(signals).toEqual([
      { verb: 'signal', signal_name: 'SlaClockChanged', signal_args: [{ reason: 'paused' }] },
      { verb: 'signal', signal_name: 'SlaClockChanged', signal_args: [{ reason: 'resumed' }] },
    ]);
    expectProblem(await api.post(`${CLOCKS}/${clock.id}/resume`, t.asOwner), 409, 'sla-clock-state-conflict');
  });

  it('stop: MET before the due date (then every step is 409 with the state); after the due date the breach is recorded and it stays BREACHED', async () => {
    now = new Date('2025-04-07T07:30:00Z');
    const met = await started();
    const stopped = await api.post(`${CLOCKS}/${met.id}/stop`, t.asOwner);
    expect(stopped.json).toMatchObject({ state: 'MET', stoppedAt: now.toISOString(), elapsedBusinessMinutes: 30 });
    for (const step of ['pause', 'resume', 'stop']) {
      const r = await api.post(`${CLOCKS}/${met.id}/${step}`, t.asOwner);
      expectProblem(r, 409, 'sla-clock-state-conflict');
      expect(r.json.state).toBe('MET');
    }
    expectProblem(await api.del(`${CLOCKS}/${met.id}`, t.asOwner), 409, 'sla-clock-state-conflict');

    const late = await started();
    now = new Date('2025-04-07T09:00:00Z');
    const breached = await api.post(`${CLOCKS}/${late.id}/stop`, t.asOwner);
    expect(breached.json).toMatchObject({ state: 'BREACHED', breachedAt: '2025-04-07T08:00:00.000Z', stoppedAt: '2025-04-07T09:00:00.000Z', remainingBusinessMinutes: 0 });
    expect(breached.json.warnings.map((w: { percent: number; at: string }) => [w.percent, w.at])).toEqual([
      [50, '2025-04-07T07:30:00.000Z'],
      [75, '2025-04-07T07:45:00.000Z'],
    ]);
    expectProblem(await api.post(`${CLOCKS}/${late.id}/stop`, t.asOwner), 409, 'sla-clock-state-conflict');
  });

  it('DELETE cancels a RUNNING or PAUSED clock, which stays readable as CANCELLED', async () => {
    now = new Date('2025-04-07T07:30:00Z');
    const running = await started();
    const r = await api.del(`${CLOCKS}/${running.id}`, t.asOwner);
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ state: 'CANCELLED', cancelledAt: now.toISOString() });
    expect((await api.get(`${CLOCKS}/${running.id}`, t.asOwner)).json.state).toBe('CANCELLED');
    const paused = await started();
    await api.post(`${CLOCKS}/${paused.id}/pause`, t.asOwner);
    expect((await api.del(`${CLOCKS}/${paused.id}`, t.asOwner)).json.state).toBe('CANCELLED');
  });

  it('pause and stop in parallel, in a loop: never a 5xx, always MET in the end, exactly one met event', async () => {
    now = new Date('2025-04-07T07:30:00Z');
    for (let round = 0; round < 8; round++) {
      const clock = await started({ subject: { kind: 'race', id: `R-${round}` } });
      const answers = await Promise.all([api.post(`${CLOCKS}/${clock.id}/pause`, t.asOwner), api.post(`${CLOCKS}/${clock.id}/stop`, t.asOwner)]);
      for (const a of answers) expect([200, 409], a.text).toContain(a.status);
      const final = (await api.get(`${CLOCKS}/${clock.id}`, t.asOwner)).json;
      expect(final.state).toBe('MET');
      expect(final.history.filter((e: { kind: string }) => e.kind === 'met')).toHaveLength(1);
    }
  });

  it('lists newest first, filtered by subject and state, keyset-paged', async () => {
    now = new Date('2025-04-07T07:30:00Z');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await started({ subject: { kind: 'case', id: 'C-7' } })).id);
    await api.post(`${CLOCKS}/${ids[1]}/stop`, t.asOwner);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = `${CLOCKS}?subjectKind=case&subjectId=C-7&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await api.get(q, t.as('reader'));
      expect(page.status, page.text).toBe(200);
      expect(page.json.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.json.items.map((c: { id: string }) => c.id));
      cursor = page.json.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    const met = await api.get(`${CLOCKS}?subjectKind=case&subjectId=C-7&state=MET`, t.asOwner);
    expect(met.json.items.map((c: { id: string }) => c.id)).toEqual([ids[1]]);
    expect(met.json.items[0]).toMatchObject({ state: 'MET', elapsedBusinessMinutes: 30 });
    expect((await api.get(`${CLOCKS}?subjectId=C-7&state=PAUSED`, t.asOwner)).json.items).toEqual([]);
    expectProblem(await api.get(`${CLOCKS}?cursor=nonsense`, t.asOwner), 400, 'invalid-cursor');
    expectProblem(await api.get(`${CLOCKS}?state=LATE`, t.asOwner), 400, 'validation-failed');
    expectProblem(await api.get(`${CLOCKS}?limit=0`, t.asOwner), 400, 'validation-failed');
  });

  it('400 for each malformed start, with field paths', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ budget: { days: 0, minutes: 0 } }, 'json.budget'],
      [{ budget: { minutes: -1 } }, 'json.budget.minutes'],
      [{ budget: { days: 3651 } }, 'json.budget.days'],
      [{ warnAt: [50, 50] }, 'json.warnAt'],
      [{ warnAt: [0] }, 'json.warnAt.0'],
      [{ warnAt: [100] }, 'json.warnAt.0'],
      [{ receivedAt: '2025-04-07 07:00' }, 'json.receivedAt'],
      [{ receivedAt: '2025-04-07T08:00:00Z' }, 'json.receivedAt'], // in the future
      [{ receivedAt: '2024-04-05T07:00:00Z' }, 'json.receivedAt'], // more than 366 days ago
      [{ subject: { kind: '', id: 'x' } }, 'json.subject.kind'],
      [{ subject: { kind: 'ticket', id: 'a\u0000b' } }, 'json.subject.id'],
      [{ processCalendarKey: '' }, 'json.processCalendarKey'],
    ];
    now = new Date('2025-04-07T07:30:00Z');
    for (const [body, path] of cases) {
      const r = await start(body);
      expectProblem(r, 400, 'validation-failed');
      expect(r.json.errors.map((e: { path: string }) => e.path), JSON.stringify(body)).toContain(path);
    }
    expectProblem(await api.get(`${CLOCKS}/not-a-uuid`, t.asOwner), 400, 'validation-failed');
  });

  it('401 without credentials; 403 for a reader writing and a member without an SLA grant; Basic credentials of an API client work', async () => {
    now = new Date('2025-04-07T07:30:00Z');
    expectProblem(await api.post(CLOCKS, null, {}), 401, 'authentication-required');
    expectProblem(await start({}, t.as('reader')), 403, 'capability-write-required');
    expectProblem(await api.get(CLOCKS, t.as('outsider')), 403, 'capability-not-granted');
    const creds = await createApiClient(ctx, t, [{ code: 'SLA', level: 'read-write' }]);
    const viaBasic = await api.post(CLOCKS, null, { processCalendarKey: 'tickets', budget: { minutes: 5 }, subject: { kind: 'ticket', id: 'B-1' } }, basic(creds, t.id));
    expect(viaBasic.status, viaBasic.text).toBe(201);
    expect(viaBasic.json.createdBy).toBe(creds.clientId);
  });

  it('404 unknown association or clock; 409 inactive association or calendar; 422 a calendar without hours', async () => {
    now = new Date('2025-04-07T07:30:00Z');
    expectProblem(await start({ processCalendarKey: 'nope' }), 404, 'process-calendar-not-found');
    expectProblem(await api.get(`${CLOCKS}/0b9d2a6e-6c1f-4b43-9a70-2f1d6f0c1a11`, t.asOwner), 404, 'sla-clock-not-found');
    expectProblem(await start({ processCalendarKey: 'dormant' }), 409, 'process-calendar-inactive');
    expectProblem(await start({ processCalendarKey: 'nohours' }), 422, 'calendar-unreachable');
    await api.put('/api/business-calendars/ALT', t.asOwner, { name: 'ALT', active: false });
    await api.post('/api/process-calendars', t.asOwner, { processDefinitionKey: 'off', calendarCode: 'ALT' });
    expectProblem(await start({ processCalendarKey: 'off' }), 409, 'calendar-inactive-calendar');
    await api.put('/api/business-calendars/ALT', t.asOwner, { name: 'ALT', active: true });
  });

  it("another tenant's clock is 404 on every route and missing from its lists", async () => {
    now = new Date('2025-04-07T07:30:00Z');
    const theirs = await api.post(CLOCKS, other.asOwner, { processCalendarKey: 'tickets', budget: { minutes: 60 }, subject: { kind: 'ticket', id: 'X-1' } });
    expect(theirs.status, theirs.text).toBe(201);
    const id = theirs.json.id;
    expectProblem(await api.get(`${CLOCKS}/${id}`, t.asOwner), 404, 'sla-clock-not-found');
    for (const step of ['pause', 'resume', 'stop']) expectProblem(await api.post(`${CLOCKS}/${id}/${step}`, t.asOwner), 404, 'sla-clock-not-found');
    expectProblem(await api.del(`${CLOCKS}/${id}`, t.asOwner), 404, 'sla-clock-not-found');
    expect((await api.get(`${CLOCKS}?subjectId=X-1`, t.asOwner)).json.items).toEqual([]);
    expect((await api.get(`${CLOCKS}/${id}`, other.asOwner)).json.state).toBe('RUNNING');
  });

  it('a calendar change writes one recompute signal per live clock of it (none for finished clocks); an association moved to another calendar takes its live clocks along', async () => {
    now = new Date('2025-04-07T07:30:00Z');
    const live = await started({ processCalendarKey: 'moving' });
    const done = await started({ processCalendarKey: 'moving' });
    await api.post(`${CLOCKS}/${done.id}/stop`, t.asOwner);
    const holiday = await api.post('/api/business-calendars/SUP/locations/BER/holidays', t.asOwner, { date: '2025-04-08', name: 'Closed Tuesday' });
    expect(holiday.status, holiday.text).toBe(201);
    const recompute = (rows: { verb: string; signal_args: unknown }[]) =>
      rows.filter((r) => r.verb === 'signal' && (r.signal_args as { reason: string }[])[0]!.reason === 'calendar-changed');
    expect(recompute(await outboxOf(live.id))).toHaveLength(1);
    expect(recompute(await outboxOf(done.id))).toHaveLength(0);
    const moved = await api.put('/api/process-calendars/moving', t.asOwner, { calendarCode: 'ALT' });
    expect(moved.status, moved.text).toBe(200);
    expect(recompute(await outboxOf(live.id))).toHaveLength(2);
    expect((await api.get(`${CLOCKS}/${live.id}`, t.asOwner)).json.calendarCode).toBe('ALT');
    expect((await api.get(`${CLOCKS}/${done.id}`, t.asOwner)).json.calendarCode).toBe('SUP');
  });

  it('hours and locations changing (added, removed) and the calendar edited each write a recompute signal for its live clocks', async () => {
    await createStandardCalendar(ctx, t.asOwner, 'CHG');
    expect((await api.post('/api/process-calendars', t.asOwner, { processDefinitionKey: 'changing', calendarCode: 'CHG' })).status).toBe(201);
    now = new Date('2025-04-07T07:30:00Z');
    const live = await started({ processCalendarKey: 'changing' });
    const recomputes = async () =>
      (await outboxOf(live.id)).filter((r) => r.verb === 'signal' && (r.signal_args as { reason: string }[])[0]!.reason === 'calendar-changed').length;
    let seen = await recomputes();
    expect(seen).toBe(0);
    // Each change must raise the count; one that touches several rows may write more than one.
    const changed = async (what: string, r: { status: number; text: string }, status: number) => {
      expect(r.status, `${what}: ${r.text}`).toBe(status);
      const count = await recomputes();
      expect(count, what).toBeGreaterThan(seen);
      seen = count;
    };
    const hours = await api.post('/api/business-calendars/CHG/locations/BER/business-hours', t.asOwner, { dayOfWeek: 6, startTime: '10:00', endTime: '12:00' });
    await changed('hours added', hours, 201);
    await changed('hours removed', await api.del(`/api/business-calendars/CHG/locations/BER/business-hours/${hours.json.id}`, t.asOwner), 204);
    await changed('location added', await api.post('/api/business-calendars/CHG/locations', t.asOwner, { locationCode: 'LON', name: 'London', timezone: 'Europe/London' }), 201);
    await changed('location removed', await api.del('/api/business-calendars/CHG/locations/LON', t.asOwner), 204);
    await changed('calendar edited', await api.put('/api/business-calendars/CHG', t.asOwner, { name: 'Calendar CHG', businessDayMinutes: 420 }), 200);
    await api.del(`${CLOCKS}/${live.id}`, t.asOwner);
  });

  it('a calendar a live clock runs on cannot be deleted (409 calendar-in-use); once its clocks finished it can, and they go with it', async () => {
    await createStandardCalendar(ctx, t.asOwner, 'TEMP');
    await api.post('/api/process-calendars', t.asOwner, { processDefinitionKey: 'temp', calendarCode: 'TEMP' });
    now = new Date('2025-04-07T07:30:00Z');
    const clock = await started({ processCalendarKey: 'temp' });
    expect((await api.del('/api/process-calendars/temp', t.asOwner)).status).toBe(204);
    expectProblem(await api.del('/api/business-calendars/TEMP', t.asOwner), 409, 'calendar-in-use');
    expect((await api.get(`${CLOCKS}/${clock.id}`, t.asOwner)).json).toMatchObject({ state: 'RUNNING', processCalendarKey: 'temp' });
    await api.del(`${CLOCKS}/${clock.id}`, t.asOwner);
    expect((await api.del('/api/business-calendars/TEMP', t.asOwner)).status).toBe(204);
    expectProblem(await api.get(`${CLOCKS}/${clock.id}`, t.asOwner), 404, 'sla-clock-not-found');
  });
});
