// Exactly-once intake across nodes (issue 23 item 3): 1,000 public embed submissions spread over
// two API nodes, delivered by two dispatchers to two workers, one worker SIGKILLed while the
// intake processes run. Each submission is processed exactly once: one outbox row (CLOSED), one
// formIntake workflow (completed), one PROCESSED state change, one run id per instance.
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servers } from '../../support/servers';
import { createCluster, createNamespace, type Cluster, type NodeProcess } from './cluster';
import { publishFormOn, seedFormsTenantOn, submitOn } from './forms-seed';

const TOTAL = 1000;
/** The worker dies once this many instances are PROCESSED: the others are queued or running. */
const KILL_AT = 250;
const SUBMITTERS = 16;

let cluster: Cluster;
let api: NodeProcess[];
let workers: NodeProcess[];
let temporal: Connection;
let namespace: string;

beforeAll(async () => {
  temporal = await Connection.connect({ address: servers().temporalAddress });
  namespace = await createNamespace(temporal);
  cluster = await createCluster({
    'temporal.namespace': namespace,
    'forms.rate-limit.per-token-per-minute': '1000000',
    'forms.rate-limit.per-ip-per-minute': '1000000',
  });
  api = await Promise.all([cluster.start('api'), cluster.start('api'), cluster.start('dispatcher'), cluster.start('dispatcher')]);
  workers = await Promise.all([cluster.start('worker'), cluster.start('worker')]);
}, 600_000);
afterAll(async () => {
  await temporal?.close();
  await cluster?.close();
});

const until = async (check: () => Promise<boolean>) => {
  while (!(await check())) await new Promise((r) => setTimeout(r, 250));
};

describe(`${TOTAL} embed submissions over two API nodes, two dispatchers, two workers`, () => {
  it('one worker SIGKILLed midway: every submission processed exactly once', async () => {
    const [a, b] = api as [NodeProcess, NodeProcess];
    const t = await seedFormsTenantOn(a, 'mn-embeds');
    const form = await publishFormOn(a, t.owner);
    const count = async (where: string) =>
      Number((await cluster.db.sql.unsafe(`select count(*)::int as n from form_instances where definition_code = $1 and ${where}`, [form.code]))[0]!.n);

    let processedAtKill = -1;
    const killer = (async () => {
      await until(async () => (await count(`state = 'PROCESSED'`)) >= KILL_AT);
      await workers[0]!.kill();
      processedAtKill = await count(`state = 'PROCESSED'`);
    })();
    const statuses: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: SUBMITTERS }, async () => {
        for (let i = next++; i < TOTAL; i = next++) {
          const r = await submitOn(i % 2 === 0 ? a : b, form.token, `s${i}@example.com`);
          statuses.push(r.status);
        }
      }),
    );
    expect(statuses.filter((s) => s === 201)).toHaveLength(TOTAL);
    await killer;
    expect(processedAtKill).toBeLessThan(TOTAL);

    // The killed worker's tasks move to the other: its workflow tasks at once, its activities
    // after their start-to-close timeout. Temporal ran one formIntake per submission, each completed.
    const client = new Client({ connection: temporal, namespace });
    const query = (status?: string) =>
      `TaskQueue = '${cluster.taskQueue}' AND WorkflowType = 'formIntake'${status ? ` AND ExecutionStatus = '${status}'` : ''}`;
    await until(async () => (await client.workflow.count(query('Completed'))).count === TOTAL);
    expect((await client.workflow.count(query())).count).toBe(TOTAL);
    expect(await count(`state = 'PROCESSED'`)).toBe(TOTAL);
    expect(await count('true')).toBe(TOTAL);
    expect(await count(`context->>'processStartStatus' = 'PROCESSED'`)).toBe(TOTAL);
    const [runs] = await cluster.db.sql`
      select count(distinct context->>'processInstanceId')::int as n from form_instances where definition_code = ${form.code}`;
    expect(runs!.n).toBe(TOTAL);

    const [outbox] = await cluster.db.sql`
      select count(*)::int as rows, count(distinct o.business_key)::int as keys,
             count(*) filter (where o.state = 'CLOSED')::int as closed
        from outbox o join form_instances f on o.business_key = f.id::text
       where f.definition_code = ${form.code}`;
    expect(outbox).toEqual({ rows: TOTAL, keys: TOTAL, closed: TOTAL });

    // The PROCESSED state change happened once per instance (the rail records every change).
    const [events] = await cluster.db.sql`
      select count(*)::int as events, count(distinct instance_id)::int as instances
        from form_event_outbox where form_code = ${form.code} and event_type = 'processed'`;
    expect(events).toEqual({ events: TOTAL, instances: TOTAL });

    console.info(`multi-node: ${TOTAL} embeds over 2 API nodes; worker killed at ${processedAtKill} processed; ${TOTAL} processed once each`);
  }, 900_000);
});
