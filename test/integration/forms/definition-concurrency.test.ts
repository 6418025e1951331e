import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app';
import { BASE, formsApi, seedFormsTenant, VALID_DRAFT } from '../../support/forms';

/** The concurrency rules, each with parallel requests in a loop. */
describe('form definitions under concurrency', () => {
  const ctx = useTestApp();
  const api = formsApi(ctx);
  let t: Awaited<ReturnType<typeof seedFormsTenant>>;

  beforeAll(async () => {
    t = await seedFormsTenant(ctx);
  });

  it('of N parallel saves at the same version exactly one wins, the rest are 409 version-conflict', async () => {
    const d = await api.create(t.as('editor'));
    let version = d.version;
    for (let round = 0; round < 5; round++) {
      const saves = await Promise.all(
        Array.from({ length: 6 }, (_, i) => api.save(t.as(i % 2 ? 'editor' : 'other'), d.id, { ...VALID_DRAFT, title: `r${round}-${i}` }, version)),
      );
      const won = saves.filter((r) => r.status === 200);
      expect(won, saves.map((r) => r.status).join(',')).toHaveLength(1);
      for (const r of saves.filter((x) => x.status !== 200)) {
        expect(r.status, r.text).toBe(409);
        expect(r.json.code).toBe('version-conflict');
      }
      const now = await api.read(t.as('editor'), d.id);
      expect(now.draftSchema.title).toBe(won[0]!.json.draftSchema.title);
      expect(now.version).toBe(version + 1);
      version = now.version;
    }
  });

  it('parallel check-ins get distinct version numbers max+1, no duplicate and no 500', async () => {
    const d = await api.create(t.as('editor'));
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => api.checkIn(t.as(i % 2 ? 'editor' : 'other'), d.id)));
      for (const r of results) expect(r.status, r.text).toBe(201);
      const numbers = results.map((r) => r.json.version as number).sort((a, b) => a - b);
      expect(numbers).toEqual(Array.from({ length: 6 }, (_, i) => round * 6 + i + 1));
    }
    const versions = (await api.get(`${BASE}/${d.id}/versions`, t.as('editor'))).json.map((v: { version: number }) => v.version);
    expect(versions).toEqual(Array.from({ length: 18 }, (_, i) => i + 1));
  });

  it('of two users checking out in parallel exactly one holds the lock, the other is 409 definition-locked', async () => {
    for (let round = 0; round < 10; round++) {
      const d = await api.create(t.as('editor'));
      const [a, b] = await Promise.all([api.step(t.as('editor'), d.id, 'checkout'), api.step(t.as('other'), d.id, 'checkout')]);
      const statuses = [a.status, b.status].sort();
      expect(statuses, `${a.text} ${b.text}`).toEqual([200, 409]);
      const winner = a.status === 200 ? 'editor' : 'other';
      const loser = a.status === 200 ? b : a;
      expect(loser.json.code).toBe('definition-locked');
      expect(loser.json.lockedBy).toBe(winner);
      expect((await api.read(t.as('editor'), d.id)).lockedBy).toBe(winner);
    }
  });

  it('creates in parallel get distinct codes', async () => {
    const created = await Promise.all(Array.from({ length: 10 }, () => api.post(BASE, t.as('editor'), { name: 'Parallel', kind: 'INBOUND' })));
    for (const r of created) expect(r.status, r.text).toBe(201);
    expect(new Set(created.map((r) => r.json.code)).size).toBe(10);
  });
});
