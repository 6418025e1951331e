import { beforeAll, describe, expect, it } from 'vitest';
import { client, useTestApp } from '../../support/app';
import { seedCalendarTenant } from '../../support/calendars';
import { expectProblem } from '../../support/fixtures';

describe('holidays: CRUD, preview, available countries and auto-import', () => {
  const ctx = useTestApp();
  const api = client(ctx);
  let t: Awaited<ReturnType<typeof seedCalendarTenant>>;
  const ber = '/api/business-calendars/HOL/locations/BER/holidays';
  const nowhere = '/api/business-calendars/HOL/locations/NOWHERE/holidays';

  beforeAll(async () => {
    t = await seedCalendarTenant(ctx);
    await api.post('/api/business-calendars/HOL', t.asOwner, { name: 'Holidays' });
    await api.post('/api/business-calendars/HOL/locations', t.asOwner, {
      locationCode: 'BER',
      name: 'Berlin',
      timezone: 'Europe/Berlin',
      country: 'DE',
      region: 'BE',
    });
    await api.post('/api/business-calendars/HOL/locations', t.asOwner, { locationCode: 'NOWHERE', name: 'No country', timezone: 'UTC' });
    await api.post('/api/business-calendars/HOL/locations', t.asOwner, {
      locationCode: 'LON',
      name: 'London',
      timezone: 'Europe/London',
      country: 'GB',
      region: 'ENG',
    });
  });

  it('POST a closed holiday and a narrowed one (closed=false with openFrom/openUntil) answers the spec fields', async () => {
    const closed = await api.post(ber, t.asOwner, { date: '2025-06-02', name: 'Company day', type: 'company', description: 'offsite' });
    expect(closed.status, closed.text).toBe(201);
    expect(closed.json).toMatchObject({
      locationId: expect.any(String),
      date: '2025-06-02',
      name: 'Company day',
      type: 'company',
      openFrom: null,
      openUntil: null,
      closed: true,
      description: 'offsite',
      recurring: false,
    });
    const narrowed = await api.post(ber, t.asOwner, { date: '2025-12-31', name: 'New Year’s Eve', closed: false, openFrom: '09:00', openUntil: '12:00', recurring: true });
    expect(narrowed.status, narrowed.text).toBe(201);
    expect(narrowed.json).toMatchObject({ closed: false, openFrom: '09:00', openUntil: '12:00', recurring: true });
  });

  it('holiday validation: closed=false needs openFrom before openUntil; dates must exist', async () => {
    let r = await api.post(ber, t.asOwner, { date: '2025-05-05', name: 'x', closed: false });
    expectProblem(r, 400, 'validation-failed');
    expect(r.json.errors.map((e: { path: string }) => e.path)).toEqual(expect.arrayContaining(['json.openFrom', 'json.openUntil']));
    r = await api.post(ber, t.asOwner, { date: '2025-05-05', name: 'x', closed: false, openFrom: '12:00', openUntil: '09:00' });
    expect(r.json.errors.map((e: { path: string }) => e.path)).toContain('json.openUntil');
    r = await api.post(ber, t.asOwner, { date: '2025-02-29', name: 'x' });
    expect(r.json.errors.map((e: { path: string }) => e.path)).toContain('json.date');
  });

  it('GET lists by date; ?year= gives that year’s dated holidays plus the recurring ones', async () => {
    await api.post(ber, t.asOwner, { date: '2024-03-01', name: 'Old' });
    const all = await api.get(ber, t.as('reader'));
    expect(all.json.map((h: { date: string }) => h.date)).toEqual(['2024-03-01', '2025-06-02', '2025-12-31']);
    const y2024 = await api.get(`${ber}?year=2024`, t.as('reader'));
    expect(y2024.json.map((h: { name: string }) => h.name)).toEqual(['Old', 'New Year’s Eve']);
  });

  it('DELETE holidays/{id} removes one; unknown id 404 holiday-not-found', async () => {
    const id = (await api.get(`${ber}?year=2024`, t.asOwner)).json[0].id;
    expect((await api.del(`${ber}/${id}`, t.asOwner)).status).toBe(204);
    expectProblem(await api.del(`${ber}/${id}`, t.asOwner), 404, 'holiday-not-found');
  });

  it('available-countries lists countries with their regions', async () => {
    const r = await api.get(`${ber}/available-countries`, t.as('reader'));
    expect(r.status).toBe(200);
    const de = r.json.find((c: { countryCode: string }) => c.countryCode === 'DE');
    expect(de.name).toBe('Germany');
    expect(de.regions).toEqual(expect.arrayContaining([{ regionCode: 'BE', name: expect.any(String) }, { regionCode: 'BY', name: expect.any(String) }]));
    expect(r.json.length).toBeGreaterThan(100);
  });

  it('preview defaults to the location’s country and region; Berlin 2025 has Women’s Day (regional) and no Epiphany (Bavaria only)', async () => {
    const r = await api.get(`${ber}/preview?year=2025`, t.as('reader'));
    expect(r.status, r.text).toBe(200);
    const names = r.json.map((h: { name: string }) => h.name);
    expect(r.json.find((h: { date: string }) => h.date === '2025-03-08')).toMatchObject({ closed: true, type: 'public', substitute: false });
    expect(r.json.find((h: { date: string }) => h.date === '2025-01-06')).toBeUndefined();
    expect(names).toContain('Christmas Day');
    const stored = await api.get(ber, t.asOwner);
    expect(stored.json.some((h: { date: string }) => h.date === '2025-03-08')).toBe(false); // nothing stored
  });

  it('preview with countryCode/region/types: partial-day holidays become narrowed days, substitute days are flagged', async () => {
    const de = await api.get(`${ber}/preview?countryCode=DE&region=BY&year=2025&types=public,bank`, t.asOwner);
    expect(de.json.find((h: { date: string }) => h.date === '2025-01-06')).toBeDefined(); // Bavaria
    const eve = de.json.find((h: { date: string }) => h.date === '2025-12-24');
    expect(eve).toMatchObject({ closed: false, openFrom: '00:00', openUntil: '14:00', type: 'bank' });
    const gb = await api.get(`${ber}/preview?countryCode=GB&region=ENG&year=2021&types=public,bank`, t.asOwner);
    const substitutes = gb.json.filter((h: { substitute: boolean }) => h.substitute);
    expect(substitutes.map((h: { date: string }) => h.date)).toEqual(expect.arrayContaining(['2021-12-27', '2021-12-28']));
  });

  it('preview errors: unknown country or region and bad types are 400 with the query field; no country at all is 400', async () => {
    let r = await api.get(`${ber}/preview?countryCode=XX&year=2025`, t.asOwner);
    expectProblem(r, 400, 'calendar-invalid-input');
    expect(r.json.errors).toEqual([{ path: 'query.countryCode', message: expect.any(String) }]);
    r = await api.get(`${ber}/preview?countryCode=DE&region=ZZ&year=2025`, t.asOwner);
    expect(r.json.errors[0].path).toBe('query.region');
    r = await api.get(`${ber}/preview?year=2025&types=public,holy`, t.asOwner);
    expectProblem(r, 400, 'validation-failed');
    expect(r.json.errors[0].path).toMatch(/^query\.types/);
    r = await api.get(`${nowhere}/preview?year=2025`, t.asOwner);
    expectProblem(r, 400, 'validation-failed');
    expect(r.json.errors[0].path).toBe('query.countryCode');
  });

  it('auto-import stores the year’s public holidays of the location; importing twice creates no duplicates', async () => {
    const first = await api.post(`${ber}/auto-import?year=2025`, t.asOwner);
    expect(first.status, first.text).toBe(200);
    expect(first.json).toMatchObject({ year: 2025, countryCode: 'DE', region: 'BE', skipped: 0 });
    expect(first.json.created.length).toBeGreaterThanOrEqual(10);
    expect(first.json.created.every((h: { recurring: boolean; type: string }) => !h.recurring && h.type === 'public')).toBe(true);
    const second = await api.post(`${ber}/auto-import?year=2025`, t.asOwner);
    expect(second.json.created).toEqual([]);
    expect(second.json.skipped).toBe(first.json.created.length);
    const stored = (await api.get(`${ber}?year=2025`, t.asOwner)).json.filter((h: { type: string }) => h.type === 'public');
    expect(stored).toHaveLength(first.json.created.length);
  });

  it('auto-import skips a holiday already entered by hand (same date and name, any case) or as recurring on that day', async () => {
    const lon = '/api/business-calendars/HOL/locations/LON/holidays';
    await api.post(lon, t.asOwner, { date: '2024-12-25', name: 'christmas day', recurring: true });
    await api.post(lon, t.asOwner, { date: '2025-01-01', name: "NEW YEAR'S DAY" });
    const r = await api.post(`${lon}/auto-import?year=2025`, t.asOwner);
    expect(r.status, r.text).toBe(200);
    expect(r.json.skipped).toBe(2);
    const names = r.json.created.map((h: { name: string }) => h.name.toLowerCase());
    expect(names).not.toContain('christmas day');
    expect(names).not.toContain("new year's day");
  });

  it('concurrent auto-imports of one location still create each holiday once', async () => {
    const lon = '/api/business-calendars/HOL/locations/LON/holidays';
    const [a, b] = await Promise.all([api.post(`${lon}/auto-import?year=2026`, t.asOwner), api.post(`${lon}/auto-import?year=2026`, t.asOwner)]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.json.created.length + b.json.created.length).toBe(Math.max(a.json.created.length, b.json.created.length));
    const rows = await ctx.db.sql`select location_id, date, lower(name) as n, count(*)::int as c from holidays group by 1, 2, 3 having count(*) > 1`;
    expect(rows).toEqual([]);
  });

  it('auto-import without a location country is 422 location-country-missing; a reader cannot import (403)', async () => {
    expectProblem(await api.post(`${nowhere}/auto-import?year=2025`, t.asOwner), 422, 'location-country-missing');
    expectProblem(await api.post(`${ber}/auto-import?year=2025`, t.as('reader')), 403, 'capability-write-required');
  });

  it('holiday routes of an unknown location are 404 location-not-found', async () => {
    const x = '/api/business-calendars/HOL/locations/XX/holidays';
    expectProblem(await api.get(x, t.asOwner), 404, 'location-not-found');
    expectProblem(await api.get(`${x}/available-countries`, t.asOwner), 404, 'location-not-found');
    expectProblem(await api.get(`${x}/preview?countryCode=DE&year=2025`, t.asOwner), 404, 'location-not-found');
    expectProblem(await api.post(`${x}/auto-import?year=2025`, t.asOwner), 404, 'location-not-found');
  });
});
