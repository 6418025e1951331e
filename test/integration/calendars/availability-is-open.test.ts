import { beforeAll, describe, expect, it } from 'vitest';
import { client, useTestApp } from '../../support/app';
import { createStandardCalendar, seedCalendarTenant } from '../../support/calendars';
import { expectProblem } from '../../support/fixtures';

describe('availability and is-open reads', () => {
  let now = new Date('2025-04-07T08:00:00.000Z');
  const ctx = useTestApp({ deps: { clock: () => now } });
  const api = client(ctx);
  let t: Awaited<ReturnType<typeof seedCalendarTenant>>;

  beforeAll(async () => {
    t = await seedCalendarTenant(ctx);
    await createStandardCalendar(ctx, t.asOwner, 'SUP', { newYork: true });
    await api.post('/api/business-calendars', t.asOwner, { calendarCode: 'OFF', name: 'inactive', active: false });
    await api.post('/api/business-calendars/OFF/locations', t.asOwner, { locationCode: 'X', name: 'X', timezone: 'UTC' });
    await api.post('/api/business-calendars/OFF/locations/X/business-hours', t.asOwner, { dayOfWeek: 1, startTime: '00:00', endTime: '24:00' });
  });

  it('availability: ordered windows of the union, split where the set of open locations changes', async () => {
    const r = await api.get('/api/business-calendars/SUP/availability?from=2025-04-07&to=2025-04-08&timezone=Europe/Berlin', t.as('reader'));
    expect(r.status, r.text).toBe(200);
    expect(r.json).toEqual([
      { start: '2025-04-07T07:00:00.000Z', end: '2025-04-07T13:00:00.000Z', durationMinutes: 360, activeLocations: ['BER'] },
      { start: '2025-04-07T13:00:00.000Z', end: '2025-04-07T15:00:00.000Z', durationMinutes: 120, activeLocations: ['BER', 'NYC'] },
      { start: '2025-04-07T15:00:00.000Z', end: '2025-04-07T21:00:00.000Z', durationMinutes: 360, activeLocations: ['NYC'] },
    ]);
  });

  it('availability is clipped to [from, to) given as instants', async () => {
    const r = await api.get('/api/business-calendars/SUP/availability?from=2025-04-07T14:00:00Z&to=2025-04-07T16:00:00Z', t.asOwner);
    expect(r.json).toEqual([
      { start: '2025-04-07T14:00:00.000Z', end: '2025-04-07T15:00:00.000Z', durationMinutes: 60, activeLocations: ['BER', 'NYC'] },
      { start: '2025-04-07T15:00:00.000Z', end: '2025-04-07T16:00:00.000Z', durationMinutes: 60, activeLocations: ['NYC'] },
    ]);
  });

  it('availability errors: span above 366 days 400 calendar-span-too-large, to before from 400 with query.to, missing from 400', async () => {
    let r = await api.get('/api/business-calendars/SUP/availability?from=2025-01-01T00:00:00Z&to=2026-01-03T00:00:00Z', t.asOwner);
    expectProblem(r, 400, 'calendar-span-too-large');
    expect(r.json.errors[0].path).toBe('query.to');
    r = await api.get('/api/business-calendars/SUP/availability?from=2025-01-02T00:00:00Z&to=2025-01-01T00:00:00Z', t.asOwner);
    expectProblem(r, 400, 'calendar-invalid-input');
    expect(r.json.errors[0].path).toBe('query.to');
    r = await api.get('/api/business-calendars/SUP/availability?to=2025-01-01T00:00:00Z', t.asOwner);
    expectProblem(r, 400, 'validation-failed');
    expect(r.json.errors[0].path).toBe('query.from');
    expectProblem(await api.get('/api/business-calendars/NOPE/availability?from=2025-01-01&to=2025-01-02&timezone=UTC', t.asOwner), 404, 'calendar-not-found');
  });

  it('an inactive calendar has no availability windows', async () => {
    const r = await api.get('/api/business-calendars/OFF/availability?from=2025-04-07T00:00:00Z&to=2025-04-08T00:00:00Z', t.asOwner);
    expect(r.json).toEqual([]);
  });

  it('is-open now: open locations and nextChangeAt, cacheable until then but at most the cap (900 s)', async () => {
    now = new Date('2025-04-07T08:00:00.000Z');
    const r = await api.get('/api/business-calendars/SUP/is-open', t.as('reader'));
    expect(r.status, r.text).toBe(200);
    expect(r.json).toEqual({ open: true, openLocations: ['BER'], nextChangeAt: '2025-04-07T13:00:00.000Z' });
    expect(r.headers.get('cache-control')).toBe('private, max-age=900');
    expect(r.headers.get('expires')).toBe(new Date('2025-04-07T08:15:00Z').toUTCString());
    expect(r.headers.get('vary')).toContain('Authorization');
  });

  it('is-open close to a change: max-age runs exactly to nextChangeAt, so a polling client never misses it', async () => {
    now = new Date('2025-04-07T12:50:00.500Z');
    const r = await api.get('/api/business-calendars/SUP/is-open', t.asOwner);
    expect(r.json.nextChangeAt).toBe('2025-04-07T13:00:00.000Z');
    expect(r.headers.get('cache-control')).toBe('private, max-age=599');
    expect(Date.parse(r.headers.get('expires')!)).toBeLessThanOrEqual(Date.parse('2025-04-07T13:00:00Z'));
  });

  it('is-open when closed (weekend) names the next opening', async () => {
    now = new Date('2025-04-05T12:00:00.000Z');
    const r = await api.get('/api/business-calendars/SUP/is-open', t.asOwner);
    expect(r.json).toEqual({ open: false, openLocations: [], nextChangeAt: '2025-04-07T07:00:00.000Z' });
  });

  it('is-open?at= answers for that instant (a window end is closed) and is not cacheable', async () => {
    const r = await api.get('/api/business-calendars/SUP/is-open?at=2025-04-07T21:00:00Z', t.asOwner);
    expect(r.json).toEqual({ open: false, openLocations: [], nextChangeAt: '2025-04-08T07:00:00.000Z' });
    expect(r.headers.get('cache-control')).toBe('private, no-cache');
    const during = await api.get('/api/business-calendars/SUP/is-open?at=2025-04-07T14:00:00Z', t.asOwner);
    expect(during.json.openLocations).toEqual(['BER', 'NYC']);
    expectProblem(await api.get('/api/business-calendars/SUP/is-open?at=tomorrow', t.asOwner), 400, 'validation-failed');
  });

  it('is-open of an inactive calendar is closed with nextChangeAt null, cacheable for the cap; unknown calendar 404', async () => {
    now = new Date('2025-04-07T08:00:00.000Z');
    const r = await api.get('/api/business-calendars/OFF/is-open', t.asOwner);
    expect(r.json).toEqual({ open: false, openLocations: [], nextChangeAt: null });
    expect(r.headers.get('cache-control')).toBe('private, max-age=900');
    expectProblem(await api.get('/api/business-calendars/NOPE/is-open', t.asOwner), 404, 'calendar-not-found');
  });

  it('availability and is-open need CALENDAR (SLA alone is not enough)', async () => {
    await api.put(`/api/tenants/${t.id}/users/outsider/capabilities/SLA`, t.asOwner, { level: 'read' });
    expectProblem(await api.get('/api/business-calendars/SUP/is-open', t.as('outsider')), 403, 'capability-not-granted');
    expectProblem(await api.get('/api/business-calendars/SUP/availability?from=2025-04-07&to=2025-04-08&timezone=UTC', t.as('outsider')), 403, 'capability-not-granted');
  });
});
