import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { phoneCalls } from '../../../db/schema/phone';
import { client } from '../../support/app';
import { expectProblem } from '../../support/fixtures';
import { seedPhoneTenant, usePhoneApp } from '../../support/phone';

describe('GET /api/phone-calls: paged, capped at 200, filtered, newest first', () => {
  const ctx = usePhoneApp();
  const api = client(ctx);
  let t: Awaited<ReturnType<typeof seedPhoneTenant>>;
  let other: Awaited<ReturnType<typeof seedPhoneTenant>>;
  const TOTAL = 230;

  beforeAll(async () => {
    t = await seedPhoneTenant(ctx, { connectKey: false });
    other = await seedPhoneTenant(ctx, { connectKey: false });
    // Rows written directly: listing rules do not depend on how calls were placed. Every third
    // call is INBOUND, statuses rotate, and several rows share one created_at to test the tie-break.
    const statuses = ['QUEUED', 'RINGING', 'IN_PROGRESS', 'ENDED', 'FAILED'] as const;
    const base = Date.parse('2026-01-01T00:00:00.000Z');
    const rows = Array.from({ length: TOTAL }, (_, i) => {
      const id = randomUUID();
      return {
        id,
        tenantId: t.id,
        direction: i % 3 === 0 ? ('INBOUND' as const) : ('OUTBOUND' as const),
        status: statuses[i % 5]!,
        businessKey: id,
        initiatedBy: 'seed',
        customerNumber: `+1415555${String(i).padStart(4, '0')}`,
        createdAt: new Date(base + Math.floor(i / 4) * 1000),
      };
    });
    await ctx.db.db.insert(phoneCalls).values(rows);
    // Sub-millisecond offsets, as now() produces: a cursor with JS-Date precision would skip rows.
    await ctx.db.sql`update phone_calls set created_at = created_at + (get_byte(uuid_send(id), 0) * 3) * interval '1 microsecond'
      where tenant_id = ${t.id} and get_byte(uuid_send(id), 1) % 2 = 0`;
    const foreign = randomUUID();
    await ctx.db.db.insert(phoneCalls).values({
      id: foreign,
      tenantId: other.id,
      direction: 'OUTBOUND',
      status: 'RINGING',
      businessKey: foreign,
      initiatedBy: 'seed',
      createdAt: new Date(base + 10_000_000),
    });
  });

  // Served timestamps have millisecond precision; the order itself uses the stored microseconds.
  const isNewestFirst = (items: Array<{ createdAt: string }>) => items.every((x, i) => i === 0 || x.createdAt <= items[i - 1]!.createdAt);

  it('default page is 50, newest first, with a cursor to the next page; only this tenant’s calls', async () => {
    const r = await api.get('/api/phone-calls', t.reader);
    expect(r.status, r.text).toBe(200);
    expect(r.json.limit).toBe(50);
    expect(r.json.items).toHaveLength(50);
    expect(isNewestFirst(r.json.items)).toBe(true);
    expect(r.json.nextCursor).toEqual(expect.any(String));
    expect(r.json.items[0]).not.toHaveProperty('transcript');
    const mine = await api.get('/api/phone-calls', other.reader);
    expect(mine.json.items).toHaveLength(1);
  });

  it('limit above 200 is capped to 200 (not an error); the answer says which page size was served', async () => {
    const r = await api.get('/api/phone-calls?limit=1000', t.reader);
    expect(r.status).toBe(200);
    expect(r.json.limit).toBe(200);
    expect(r.json.items).toHaveLength(200);
  });

  it('limit below 1 or not a number is 400', async () => {
    expectProblem(await api.get('/api/phone-calls?limit=0', t.reader), 400, 'validation-failed');
    expectProblem(await api.get('/api/phone-calls?limit=ten', t.reader), 400, 'validation-failed');
  });

  it('following nextCursor visits every call exactly once, across rows sharing a timestamp, and ends with null', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r = await api.get(`/api/phone-calls?limit=37${cursor ? `&cursor=${cursor}` : ''}`, t.reader);
      expect(r.status, r.text).toBe(200);
      expect(isNewestFirst(r.json.items)).toBe(true);
      seen.push(...r.json.items.map((x: { id: string }) => x.id));
      cursor = r.json.nextCursor;
      pages += 1;
    } while (cursor && pages < 20);
    expect(seen).toHaveLength(TOTAL);
    expect(new Set(seen).size).toBe(TOTAL);
    expect(pages).toBe(Math.ceil(TOTAL / 37));
  });

  it('status and direction filters combine', async () => {
    const r = await api.get('/api/phone-calls?status=ENDED&direction=INBOUND&limit=200', t.reader);
    const expected = Array.from({ length: TOTAL }, (_, i) => i).filter((i) => i % 5 === 3 && i % 3 === 0).length;
    expect(r.json.items).toHaveLength(expected);
    expect(r.json.items.every((x: { status: string; direction: string }) => x.status === 'ENDED' && x.direction === 'INBOUND')).toBe(true);
    expectProblem(await api.get('/api/phone-calls?status=DONE', t.reader), 400, 'validation-failed');
    expectProblem(await api.get('/api/phone-calls?direction=SIDEWAYS', t.reader), 400, 'validation-failed');
  });

  it('a cursor that is not one of ours is 400 invalid-cursor', async () => {
    expectProblem(await api.get('/api/phone-calls?cursor=bm9wZQ', t.reader), 400, 'invalid-cursor');
  });
});
