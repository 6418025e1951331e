// Rate limits hold across API nodes (issue 23 item 3): the counters live in PostgreSQL, so the
// answers admitted by both nodes together stay within one limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCluster, type Cluster, type NodeProcess } from './cluster';
import { publishFormOn, seedFormsTenantOn, submitOn } from './forms-seed';

const PER_TOKEN = 20;
const SENT = 60;

let cluster: Cluster;
let a: NodeProcess;
let b: NodeProcess;

beforeAll(async () => {
  cluster = await createCluster({ 'forms.rate-limit.per-token-per-minute': String(PER_TOKEN), 'forms.rate-limit.per-ip-per-minute': '100000' });
  [a, b] = await Promise.all([cluster.start('api'), cluster.start('api')]);
});
afterAll(async () => {
  await cluster?.close();
});

describe('forms embed per-token limit across two API nodes', () => {
  it(`${SENT} parallel submissions split over both nodes, in a loop: exactly ${PER_TOKEN} admitted in all, the rest 429 with Retry-After`, async () => {
    const t = await seedFormsTenantOn(a, 'mn-rate');
    for (let round = 0; round < 3; round++) {
      const form = await publishFormOn(a, t.owner, `Intake ${round}`);
      const answers = await Promise.all(
        Array.from({ length: SENT }, (_, i) => submitOn(i % 2 === 0 ? a : b, form.token, `r${round}-${i}@example.com`).then((r) => ({ ...r, node: i % 2 }))),
      );
      const admitted = answers.filter((r) => r.status === 201);
      const limited = answers.filter((r) => r.status === 429);
      expect(admitted.length + limited.length, JSON.stringify(answers.map((r) => r.status))).toBe(SENT);
      expect(admitted).toHaveLength(PER_TOKEN);
      for (const r of limited) {
        expect(r.json.code).toBe('rate-limited');
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      console.info(`multi-node: round ${round}: admitted by A ${admitted.filter((r) => r.node === 0).length}, by B ${admitted.filter((r) => r.node === 1).length}; refused ${limited.length}`);
      const [stored] = await cluster.db.sql`select count(*)::int as n from form_instances where definition_code = ${form.code}`;
      expect(stored!.n).toBe(PER_TOKEN);
    }
  });
});
