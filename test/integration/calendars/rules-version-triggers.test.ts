// business_calendars.rules_version is raised by PostgreSQL triggers (migration 0023) on every
// change of a calendar's engine input, whatever writes it: plain SQL here, no service involved.
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app';
import { seedTenant } from '../../support/fixtures';

describe('calendar rules version triggers', () => {
  const ctx = useTestApp();
  let tenantId: string;
  let n = 0;

  beforeAll(async () => {
    tenantId = (await seedTenant(ctx, {})).id;
  });

  const sql = () => ctx.db.sql;
  const version = async (calendarId: string) =>
    Number((await sql()`select rules_version from business_calendars where id = ${calendarId}`)[0]!.rules_version);

  async function calendar() {
    const [row] = await sql()`insert into business_calendars (tenant_id, calendar_code, name)
      values (${tenantId}, ${`C${++n}`}, 'c') returning id, rules_version`;
    expect(Number(row!.rules_version)).toBe(1);
    return row!.id as string;
  }
  async function location(calendarId: string, code = 'L') {
    const [row] = await sql()`insert into calendar_locations (tenant_id, calendar_id, location_code, name, timezone)
      values (${tenantId}, ${calendarId}, ${code}, 'l', 'UTC') returning id`;
    return row!.id as string;
  }

  /** Runs `change` and expects it to raise the calendar's version by exactly `by`. */
  async function expectRaised(calendarId: string, change: () => Promise<unknown>, by = 1) {
    const before = await version(calendarId);
    await change();
    expect(await version(calendarId)).toBe(before + by);
  }

  it('the calendar row: a change of code, active or business_day_minutes raises it; name, description and stamps do not', async () => {
    const id = await calendar();
    await expectRaised(id, () => sql()`update business_calendars set active = false where id = ${id}`);
    await expectRaised(id, () => sql()`update business_calendars set business_day_minutes = 240 where id = ${id}`);
    await expectRaised(id, () => sql()`update business_calendars set calendar_code = ${`R${++n}`} where id = ${id}`);
    await expectRaised(id, () => sql()`update business_calendars set name = 'renamed', description = 'd', updated_at = now() where id = ${id}`, 0);
    await expectRaised(id, () => sql()`update business_calendars set active = false where id = ${id}`, 0); // unchanged value
  });

  it('calendar_locations: insert, update (enabled, timezone, sort order) and delete each raise it', async () => {
    const id = await calendar();
    let loc = '';
    await expectRaised(id, async () => (loc = await location(id)));
    await expectRaised(id, () => sql()`update calendar_locations set enabled = false where id = ${loc}`);
    await expectRaised(id, () => sql()`update calendar_locations set timezone = 'Europe/Berlin' where id = ${loc}`);
    await expectRaised(id, () => sql()`update calendar_locations set sort_order = 3 where id = ${loc}`);
    await expectRaised(id, () => sql()`delete from calendar_locations where id = ${loc}`);
  });

  it('business_hours: insert, update and delete each raise the calendar of their location', async () => {
    const id = await calendar();
    const loc = await location(id);
    let hours = '';
    await expectRaised(id, async () => {
      [{ id: hours }] = (await sql()`insert into business_hours (tenant_id, location_id, day_of_week, start_time, end_time)
        values (${tenantId}, ${loc}, 1, '09:00', '17:00') returning id`) as unknown as [{ id: string }];
    });
    await expectRaised(id, () => sql()`update business_hours set end_time = '18:00' where id = ${hours}`);
    await expectRaised(id, () => sql()`update business_hours set active = false where id = ${hours}`);
    await expectRaised(id, () => sql()`delete from business_hours where id = ${hours}`);
  });

  it('holidays: insert, update and delete each raise it; an import of many rows in one statement raises it once', async () => {
    const id = await calendar();
    const loc = await location(id);
    let holiday = '';
    await expectRaised(id, async () => {
      [{ id: holiday }] = (await sql()`insert into holidays (tenant_id, location_id, date, name)
        values (${tenantId}, ${loc}, '2025-04-18', 'Good Friday') returning id`) as unknown as [{ id: string }];
    });
    await expectRaised(id, () => sql()`update holidays set closed = false, open_from = '09:00', open_until = '12:00' where id = ${holiday}`);
    await expectRaised(id, () => sql()`update holidays set recurring = true where id = ${holiday}`);
    await expectRaised(id, () => sql()`delete from holidays where id = ${holiday}`);
    await expectRaised(id, () => sql()`insert into holidays (tenant_id, location_id, date, name)
      select ${tenantId}, ${loc}, d::date, 'imported' from generate_series('2025-01-01'::date, '2025-01-10'::date, '1 day') d`);
    await expectRaised(id, () => sql()`delete from holidays where location_id = ${loc}`);
  });

  it('a statement that touches two calendars raises each once; a location moved raises both calendars', async () => {
    const a = await calendar();
    const b = await calendar();
    const la = await location(a);
    const lb = await location(b);
    const before = { a: await version(a), b: await version(b) };
    await sql()`insert into holidays (tenant_id, location_id, date, name)
      values (${tenantId}, ${la}, '2025-01-01', 'x'), (${tenantId}, ${la}, '2025-01-02', 'y'), (${tenantId}, ${lb}, '2025-01-01', 'z')`;
    expect({ a: await version(a), b: await version(b) }).toEqual({ a: before.a + 1, b: before.b + 1 });
    await sql()`update calendar_locations set calendar_id = ${b}, location_code = 'MOVED' where id = ${la}`;
    expect({ a: await version(a), b: await version(b) }).toEqual({ a: before.a + 2, b: before.b + 2 });
  });

  it('an update or delete that matches no row raises nothing; another calendar is never raised', async () => {
    const a = await calendar();
    const b = await calendar();
    const la = await location(a);
    await expectRaised(a, () => sql()`update holidays set name = 'x' where location_id = ${la}`, 0);
    await expectRaised(a, () => sql()`delete from business_hours where location_id = ${la}`, 0);
    await expectRaised(b, () => sql()`insert into holidays (tenant_id, location_id, date, name) values (${tenantId}, ${la}, '2025-01-01', 'x')`, 0);
  });

  it('a rolled-back change leaves the version as it was', async () => {
    const id = await calendar();
    const loc = await location(id);
    await expectRaised(
      id,
      () =>
        sql()
          .begin(async (tx) => {
            await tx`insert into holidays (tenant_id, location_id, date, name) values (${tenantId}, ${loc}, '2025-01-01', 'x')`;
            throw new Error('roll back');
          })
          .catch(() => {}),
      0,
    );
  });

  it('deleting a calendar with locations, hours and holidays cascades as before (the triggers find nothing left to raise)', async () => {
    const id = await calendar();
    const loc = await location(id);
    await sql()`insert into business_hours (tenant_id, location_id, day_of_week, start_time, end_time) values (${tenantId}, ${loc}, 1, '09:00', '17:00')`;
    await sql()`insert into holidays (tenant_id, location_id, date, name) values (${tenantId}, ${loc}, '2025-01-01', 'x')`;
    await sql()`delete from business_calendars where id = ${id}`;
    expect(await sql()`select 1 from calendar_locations where id = ${loc}`).toHaveLength(0);
    expect(await sql()`select 1 from holidays where location_id = ${loc}`).toHaveLength(0);
  });
});
