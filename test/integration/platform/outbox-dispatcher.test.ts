import { Client, Connection } from '@temporalio/client';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueStart, type OutboxRow } from '../../../db/outbox';
import { OutboxDispatcher, temporalStarter } from '../../../workers/dispatcher';
import { createTestDatabase, type TestDatabase } from '../../support/db';
import { ProbeProcess } from '../../support/processes';
import { servers } from '../../support/servers';

const CHILD = fileURLToPath(new URL('../../support/dispatcher-child.ts', import.meta.url));

describe('outbox dispatcher', () => {
  let db: TestDatabase;
  let connection: Connection;
  let client: Client;

  beforeAll(async () => {
    db = await createTestDatabase();
    connection = await Connection.connect({ address: servers().temporalAddress });
    client = new Client({ connection });
  });
  afterAll(async () => {
    await connection?.close();
    await db?.drop();
  });

  const dispatcher = (startWorkflow: (row: OutboxRow) => Promise<string | null>, extra: Partial<ConstructorParameters<typeof OutboxDispatcher>[0]> = {}) =>
    new OutboxDispatcher({
      database: db,
      logger: pino({ level: 'silent' }),
      startWorkflow,
      capabilities: ['PROBE'],
      pollMs: 200,
      batchSize: 50,
      maxAttempts: 3,
      backoffMs: 20,
      ...extra,
    });

  async function enqueue(tenant: string, n: number, taskQueue: string) {
    await db.db.transaction(async (tx) => {
      for (let i = 0; i < n; i++) {
        await enqueueStart(tx, ProbeProcess, { tenantId: tenant, key: `k${i}` }, { taskQueue });
      }
    });
  }

  const states = async (tenant: string) =>
    Object.fromEntries(
      (
        await db.db.execute<{ state: string; n: number }>(
          sql`select state, count(*)::int as n from outbox where tenant_id = ${tenant} group by state`,
        )
      ).map((r) => [r.state, r.n]),
    );

  async function until(check: () => Promise<boolean>, timeoutMs = 120_000) {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('condition not reached in time');
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  // 500 starts on a shared 2-core machine: the default 60 s is too tight under a full-suite load.
  it('500 rows, a dispatcher SIGKILLed mid-batch and two racing: every workflow started exactly once', async () => {
    const tenant = `race-${randomBytes(4).toString('hex')}`;
    const taskQueue = `tq-${tenant}`;
    await enqueue(tenant, 500, taskQueue);

    // 1. A dispatcher process starts some workflows and is killed in the middle of a batch.
    // node itself (not the tsx wrapper), so SIGKILL hits the dispatcher and nothing survives it.
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      env: { ...process.env, DATABASE_URL: db.url, TEMPORAL_ADDRESS: servers().temporalAddress, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const childStarted: string[] = [];
    await new Promise<void>((resolve) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (line.startsWith('started ') && childStarted.push(line.slice('started '.length)) === 20) {
          child.kill('SIGKILL');
          resolve();
        }
      });
    });
    await new Promise((r) => child.once('exit', r));
    // Its open batch rolled back: the rows it had started are QUEUED again, none lost.
    const afterKill = await states(tenant);
    expect((afterKill.QUEUED ?? 0) + (afterKill.STARTED ?? 0)).toBe(500);
    expect(afterKill.QUEUED).toBeGreaterThan(0);

    // 2. Two dispatchers race over the rest.
    const start = temporalStarter(client, taskQueue);
    const a = dispatcher(start);
    const b = dispatcher(start);
    await Promise.all([a.start(), b.start()]);
    await until(async () => (await states(tenant)).STARTED === 500);
    await Promise.all([a.stop(), b.stop()]);

    // Workflows the killed process had started were repeats, never second executions.
    await until(async () => (await client.workflow.count(`TenantId = '${tenant}'`)).count === 500);
    const perKey = await client.workflow.count(`TenantId = '${tenant}' AND BusinessKey = 'k7'`);
    expect(perKey.count).toBe(1);
    // Every row keeps its execution's run id, also the repeats of starts the killed process made.
    const rows = await db.db.execute<{ business_key: string; workflow_id: string; process_instance_id: string | null }>(
      sql`select business_key, workflow_id, process_instance_id from outbox where tenant_id = ${tenant}`,
    );
    expect(new Set(rows.map((r) => r.process_instance_id)).size).toBe(500);
    expect(rows.filter((r) => !r.process_instance_id)).toEqual([]);
    for (const key of childStarted) {
      const row = rows.find((r) => r.business_key === key)!;
      expect(row.process_instance_id, key).toBe((await client.workflow.getHandle(row.workflow_id).describe()).runId);
    }
  }, 180_000);

  it('a row whose workflow was started just before a crash gets the run id of that execution on recovery', async () => {
    const tenant = `runid-${randomBytes(4).toString('hex')}`;
    const taskQueue = `tq-${tenant}`;
    await enqueue(tenant, 1, taskQueue);
    const [row] = await db.db.execute<{ workflow_id: string; workflow_type: string }>(
      sql`select workflow_id, workflow_type from outbox where tenant_id = ${tenant}`,
    );
    // The start reached Temporal; the process died before its transaction marked the row.
    const first = await client.workflow.start(row!.workflow_type, { taskQueue, workflowId: row!.workflow_id, args: [{ tenantId: tenant, key: 'k0' }] });
    expect(await dispatcher(temporalStarter(client, taskQueue)).dispatchOnce()).toBe(1);
    const [after] = await db.db.execute<{ state: string; process_instance_id: string | null }>(
      sql`select state, process_instance_id from outbox where tenant_id = ${tenant}`,
    );
    expect(after).toEqual({ state: 'STARTED', process_instance_id: first.firstExecutionRunId });
    await first.terminate('test over');
  });

  it('a start that keeps failing backs off, records the error and ends FAILED after max attempts', async () => {
    const tenant = `fail-${randomBytes(4).toString('hex')}`;
    await enqueue(tenant, 1, 'unused');
    let attempts = 0;
    const d = dispatcher(async () => {
      attempts++;
      throw new Error('temporal unavailable');
    }, { pollMs: 50 });
    await d.start();
    await until(async () => (await states(tenant)).FAILED === 1);
    await d.stop();
    expect(attempts).toBe(3);
    const [row] = await db.db.execute<{ retry_count: number; last_error: string }>(
      sql`select retry_count, last_error from outbox where tenant_id = ${tenant}`,
    );
    expect(row).toMatchObject({ retry_count: 3, last_error: 'temporal unavailable' });
  });

  it('is woken by NOTIFY, not only by polling', async () => {
    const tenant = `notify-${randomBytes(4).toString('hex')}`;
    const started: string[] = [];
    const d = dispatcher(async (row) => {
      started.push(row.businessKey);
      return 'run';
    }, { pollMs: 600_000 });
    await d.start();
    await new Promise((r) => setTimeout(r, 300)); // the first (empty) pass is over; next poll is 10 min away
    await enqueue(tenant, 3, 'unused');
    await until(async () => started.length === 3);
    await d.stop();
    expect(started.sort()).toEqual(['k0', 'k1', 'k2']);
  });

  it('only dispatches the capabilities it is enabled for', async () => {
    const tenant = `cap-${randomBytes(4).toString('hex')}`;
    await enqueue(tenant, 2, 'unused');
    const seen: string[] = [];
    const d = dispatcher(async (row) => {
      seen.push(row.capability);
      return 'run';
    }, { capabilities: ['OTHER'] });
    await d.dispatchOnce();
    expect(seen).toEqual([]);
    expect((await states(tenant)).QUEUED).toBe(2);
  });
});
