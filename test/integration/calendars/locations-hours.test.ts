import { beforeAll, describe, expect, it } from 'vitest';
import { client, useTestApp } from '../../support/app';
import { seedCalendarTenant } from '../../support/calendars';
import { expectProblem } from '../../support/fixtures';

describe('calendar locations and business hours', () => {
  const ctx = useTestApp();
  const api = client(ctx);
  let t: Awaited<ReturnType<typeof seedCalendarTenant>>;
  let calendarId: string;
  const base = '/api/business-calendars/OPS/locations';

  beforeAll(async () => {
    t = await seedCalendarTenant(ctx);
    calendarId = (await api.post('/api/business-calendars/OPS', t.asOwner, { name: 'Operations' })).json.id;
  });

  it('POST locations answers the spec fields (country upper-cased, defaults enabled=true, sortOrder=0)', async () => {
    const r = await api.post(base, t.asOwner, { locationCode: 'BER', name: 'Berlin', timezone: 'Europe/Berlin', country: 'de', region: 'BE', city: 'Berlin' });
    expect(r.status, r.text).toBe(201);
    expect(r.json).toMatchObject({
      id: expect.any(String),
      calendarId,
      locationCode: 'BER',
      name: 'Berlin',
      timezone: 'Europe/Berlin',
      country: 'DE',
      region: 'BE',
      city: 'Berlin',
      enabled: true,
      sortOrder: 0,
    });
  });

  it('a duplicate locationCode in the calendar is 409 location-exists; the same code in another calendar is fine', async () => {
    expectProblem(await api.post(base, t.asOwner, { locationCode: 'BER', name: 'again', timezone: 'UTC' }), 409, 'location-exists');
    await api.post('/api/business-calendars/OTHER', t.asOwner, { name: 'Other' });
    expect((await api.post('/api/business-calendars/OTHER/locations', t.asOwner, { locationCode: 'BER', name: 'B', timezone: 'UTC' })).status).toBe(201);
  });

  it('timezone must be IANA and country alpha-2: 400 with field paths', async () => {
    const r = await api.post(base, t.asOwner, { locationCode: 'X', name: 'X', timezone: 'Mars/Olympus', country: 'DEU' });
    expectProblem(r, 400, 'validation-failed');
    expect(r.json.errors.map((e: { path: string }) => e.path)).toEqual(expect.arrayContaining(['json.timezone', 'json.country']));
  });

  it('GET lists locations in sortOrder; GET one; unknown location 404 location-not-found', async () => {
    await api.post(base, t.asOwner, { locationCode: 'AAA', name: 'First', timezone: 'Asia/Tokyo', sortOrder: -1 });
    const list = await api.get(base, t.as('reader'));
    expect(list.json.map((l: { locationCode: string }) => l.locationCode)).toEqual(['AAA', 'BER']);
    expect((await api.get(`${base}/BER`, t.as('reader'))).json.timezone).toBe('Europe/Berlin');
    expectProblem(await api.get(`${base}/NOPE`, t.asOwner), 404, 'location-not-found');
    expectProblem(await api.get('/api/business-calendars/NOPE/locations', t.asOwner), 404, 'calendar-not-found');
  });

  it('PUT replaces a location, renames it with a new locationCode, and 409s onto a taken code', async () => {
    const r = await api.put(`${base}/AAA`, t.asOwner, { name: 'Tokyo', timezone: 'Asia/Tokyo', enabled: false, sortOrder: 5 });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ locationCode: 'AAA', name: 'Tokyo', enabled: false, sortOrder: 5, country: null });
    const renamed = await api.put(`${base}/AAA`, t.asOwner, { locationCode: 'TYO', name: 'Tokyo', timezone: 'Asia/Tokyo' });
    expect(renamed.json.locationCode).toBe('TYO');
    expectProblem(await api.put(`${base}/TYO`, t.asOwner, { locationCode: 'BER', name: 'x', timezone: 'UTC' }), 409, 'location-exists');
    expectProblem(await api.put(`${base}/NOPE`, t.asOwner, { name: 'x', timezone: 'UTC' }), 404, 'location-not-found');
  });

  it('POST business-hours stores the window with its descriptive fields; GET lists by day and start', async () => {
    const h = `${base}/BER/business-hours`;
    const window = {
      dayOfWeek: 2,
      startTime: '13:00',
      endTime: '17:30',
      label: 'afternoon',
      partial: true,
      capacityPercent: 50,
      partialReason: 'half staff',
      effectiveFrom: '2025-01-01',
      effectiveUntil: '2025-12-31',
    };
    const r = await api.post(h, t.asOwner, window);
    expect(r.status, r.text).toBe(201);
    expect(r.json).toMatchObject({ ...window, locationId: expect.any(String), active: true });
    await api.post(h, t.asOwner, { dayOfWeek: 2, startTime: '08:00', endTime: '12:00' });
    await api.post(h, t.asOwner, { dayOfWeek: 1, startTime: '22:00', endTime: '06:00', label: 'night' });
    const list = await api.get(h, t.as('reader'));
    expect(list.json.map((x: { dayOfWeek: number; startTime: string }) => `${x.dayOfWeek} ${x.startTime}`)).toEqual(['1 22:00', '2 08:00', '2 13:00']);
  });

  it('hours validation: dayOfWeek 1..7, HH:mm (24:00 only as an end), effectiveUntil not before effectiveFrom, real dates', async () => {
    const h = `${base}/BER/business-hours`;
    for (const [body, path] of [
      [{ dayOfWeek: 0, startTime: '09:00', endTime: '17:00' }, 'json.dayOfWeek'],
      [{ dayOfWeek: 8, startTime: '09:00', endTime: '17:00' }, 'json.dayOfWeek'],
      [{ dayOfWeek: 1, startTime: '24:00', endTime: '17:00' }, 'json.startTime'],
      [{ dayOfWeek: 1, startTime: '9:00', endTime: '17:00' }, 'json.startTime'],
      [{ dayOfWeek: 1, startTime: '09:00', endTime: '24:01' }, 'json.endTime'],
      [{ dayOfWeek: 1, startTime: '09:00', endTime: '17:00', effectiveFrom: '2025-02-30' }, 'json.effectiveFrom'],
      [{ dayOfWeek: 1, startTime: '09:00', endTime: '17:00', effectiveFrom: '2025-06-01', effectiveUntil: '2025-05-31' }, 'json.effectiveUntil'],
    ] as const) {
      const r = await api.post(h, t.asOwner, body);
      expectProblem(r, 400, 'validation-failed');
      expect(r.json.errors.map((e: { path: string }) => e.path), JSON.stringify(body)).toContain(path);
    }
    expect((await api.post(h, t.asOwner, { dayOfWeek: 7, startTime: '18:00', endTime: '24:00' })).status).toBe(201);
  });

  it('DELETE business-hours/{id} removes one window; an unknown or another location’s id is 404', async () => {
    const h = `${base}/BER/business-hours`;
    const id = (await api.get(h, t.asOwner)).json[0].id;
    expectProblem(await api.del(`${base}/TYO/business-hours/${id}`, t.asOwner), 404, 'business-hours-not-found');
    expect((await api.del(`${h}/${id}`, t.asOwner)).status).toBe(204);
    expectProblem(await api.del(`${h}/${id}`, t.asOwner), 404, 'business-hours-not-found');
    expectProblem(await api.del(`${h}/not-a-uuid`, t.asOwner), 400, 'validation-failed');
  });

  it('DELETE a location removes it with its hours; a second delete is 404', async () => {
    await api.post(`${base}/TYO/business-hours`, t.asOwner, { dayOfWeek: 1, startTime: '09:00', endTime: '17:00' });
    expect((await api.del(`${base}/TYO`, t.asOwner)).status).toBe(204);
    expectProblem(await api.get(`${base}/TYO/business-hours`, t.asOwner), 404, 'location-not-found');
    expectProblem(await api.del(`${base}/TYO`, t.asOwner), 404, 'location-not-found');
  });

  it('writes need CALENDAR read-write: a reader gets 403 on locations and hours', async () => {
    expectProblem(await api.post(base, t.as('reader'), { locationCode: 'R', name: 'R', timezone: 'UTC' }), 403, 'capability-write-required');
    expectProblem(await api.post(`${base}/BER/business-hours`, t.as('reader'), { dayOfWeek: 1, startTime: '09:00', endTime: '10:00' }), 403, 'capability-write-required');
  });
});
