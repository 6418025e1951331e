// What the faults bench reads back: how long each fault took to recover from, and afterwards
// whether every write answered 2xx had its workflow started or signalled exactly once. Every wait
// has a deadline; a missed one is a figure (`null`), never an endless loop.
import type { Client } from '@temporalio/client';
import type postgres from 'postgres';
import { workflowIdFor } from '../../db/outbox';
import type { WriteRecord } from './fault-load';
import { TENANT } from './fault-seed';

const POLL_MS = 250;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const seconds = (ms: number | null) => (ms === null ? null : Math.round(ms / 100) / 10);
const ok = (r: WriteRecord) => typeof r.status === 'number' && r.status >= 200 && r.status < 300;

export interface Recovery {
  /** The fault's end: the server answering again, or the replacement role ready (epoch ms). */
  endedAt: number;
  /** Seconds from the end to: a write sent after it answered 2xx; every outbox row committed by then delivered; every submission made by then PROCESSED; the LISTEN connections back. */
  firstWriteOkS: number | null;
  outboxDrainedS: number | null;
  intakeCaughtUpS: number | null;
  listenersBackS: number | null;
  /** The latest of the four; null when one did not happen before the deadline. */
  recoveredS: number | null;
  /** When one did not happen: what was last seen (rows still QUEUED, submissions not PROCESSED, LISTEN connections). */
  lastSeen?: { queued: number | null; unprocessed: number | null; listeners: number | null; error: string | null };
}

/**
 * Polls until the platform has caught up with everything written up to `endedAt` (or the deadline).
 * `listeners`: LISTEN connections that must be open again (the API node's and the dispatcher's).
 */
export async function awaitRecovery(sql: postgres.Sql, records: WriteRecord[], endedAt: number, listeners: number, deadlineMs: number): Promise<Recovery> {
  const until = Date.now() + deadlineMs;
  const at: Record<'write' | 'outbox' | 'intake' | 'listen', number | null> = { write: null, outbox: null, intake: null, listen: null };
  const end = new Date(endedAt).toISOString();
  const seen = { queued: null as number | null, unprocessed: null as number | null, listeners: null as number | null, error: null as string | null };
  while (Date.now() < until && Object.values(at).some((v) => v === null)) {
    const now = Date.now();
    if (at.write === null) {
      const first = records.filter((r) => r.sentAt >= endedAt && ok(r)).sort((a, b) => a.answeredAt - b.answeredAt)[0];
      if (first) at.write = first.answeredAt;
    }
    try {
      if (at.outbox === null) {
        const [row] = await sql`select count(*)::int as n from outbox where state = 'QUEUED' and created_at <= ${end}::timestamptz`;
        seen.queued = row!.n;
        if (row!.n === 0) at.outbox = now;
      }
      if (at.intake === null) {
        const [row] = await sql`select count(*)::int as n from form_instances where tenant_id = ${TENANT} and state <> 'PROCESSED' and created_at <= ${end}::timestamptz`;
        seen.unprocessed = row!.n;
        if (row!.n === 0) at.intake = now;
      }
      if (at.listen === null) {
        // A LISTEN connection runs nothing but LISTEN: its last statement says what it is.
        const [row] = await sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and query ilike 'listen %'`;
        seen.listeners = row!.n;
        if (row!.n >= listeners) at.listen = now;
      }
      seen.error = null;
    } catch (err) {
      // The bench's own connection rides out the outage like the platform's.
      seen.error = (err as Error).message.slice(0, 200);
    }
    await sleep(POLL_MS);
  }
  const since = (t: number | null) => (t === null ? null : Math.max(0, t - endedAt));
  const all = Object.values(at);
  return {
    endedAt,
    firstWriteOkS: seconds(since(at.write)),
    outboxDrainedS: seconds(since(at.outbox)),
    intakeCaughtUpS: seconds(since(at.intake)),
    listenersBackS: seconds(since(at.listen)),
    recoveredS: all.some((v) => v === null) ? null : seconds(Math.max(...all.map((v) => since(v)!))),
    ...(all.some((v) => v === null) ? { lastSeen: seen } : {}),
  };
}

/**
 * Waits, bounded, until every write has had its effect: no outbox row QUEUED, every submission
 * PROCESSED with its start row CLOSED, and no formIntake running (SLA clocks run on). True when it
 * happened. Without a client, the Temporal part is not asked (the seed's wait, before any submission).
 */
export async function awaitDrained(sql: postgres.Sql, deadlineMs: number, client?: Client): Promise<boolean> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    try {
      const [row] = await sql`
        select (select count(*) from outbox where state = 'QUEUED' or (capability = 'FORMS' and verb = 'start' and state <> 'CLOSED'))::int as open_rows,
               (select count(*) from form_instances where tenant_id = ${TENANT} and state <> 'PROCESSED')::int as open_instances`;
      const running = client ? (await client.workflow.count(`WorkflowType = 'formIntake' AND ExecutionStatus = 'Running'`)).count : 0;
      if (row!.open_rows === 0 && row!.open_instances === 0 && running === 0) return true;
    } catch {
      // not reachable yet: the deadline decides
    }
    await sleep(1000);
  }
  return false;
}

export interface Verdict {
  submissions: { answered2xx: number; lost: number; duplicated: number; committedWithout2xx: number; workflows: number; lostSeen: string[] };
  signals: { answered2xx: number; committedRows: number; delivered: number; historySignals: number; lost: number; duplicated: number; committedWithout2xx: number };
}

/** Each 2xx write's effect, from PostgreSQL and Temporal. */
export async function verify(sql: postgres.Sql, client: Client, records: WriteRecord[]): Promise<Verdict> {
  // Submissions: the instance PROCESSED once, its start row CLOSED, its formIntake COMPLETED, one run.
  const okSubmits = records.filter((r) => r.kind === 'submit' && ok(r)).map((r) => r.key!);
  const instances = new Map(
    (
      await sql<{ id: string; state: string; outbox: string | null; processed: number }[]>`
        select i.id::text as id, i.state, o.state as outbox,
               (select count(*) from form_event_outbox e where e.instance_id = i.id and e.event_type = 'processed')::int as processed
          from form_instances i
          left join outbox o on o.business_key = i.id::text and o.verb = 'start' and o.capability = 'FORMS'
         where i.tenant_id = ${TENANT}`
    ).map((r) => [r.id, r]),
  );
  let lostSubmits = 0;
  const statuses = new Map<string, string>();
  for (let i = 0; i < okSubmits.length; i += 50) {
    await Promise.all(
      okSubmits.slice(i, i + 50).map(async (id) => {
        const d = await client.workflow.getHandle(workflowIdFor('FORMS', TENANT, id)).describe().catch(() => undefined);
        statuses.set(id, d?.status.name ?? 'MISSING');
      }),
    );
  }
  const lostSeen: string[] = [];
  for (const id of okSubmits) {
    const row = instances.get(id);
    if (!row || row.state !== 'PROCESSED' || row.outbox !== 'CLOSED' || row.processed < 1 || statuses.get(id) !== 'COMPLETED') {
      lostSubmits++;
      // What each lost one looks like: instance state, start row, processed events, workflow status.
      if (lostSeen.length < 5) lostSeen.push(`${id}: ${row?.state ?? 'no instance'}, outbox ${row?.outbox ?? 'none'}, ${row?.processed ?? 0} processed, workflow ${statuses.get(id)}`);
    }
  }
  const duplicateEvents = [...instances.values()].reduce((n, r) => n + Math.max(0, r.processed - 1), 0);
  const { count: workflows } = await client.workflow.count(`WorkflowType = 'formIntake'`);
  const duplicateRuns = Math.max(0, workflows - instances.size);

  // Signals: per clock, a committed outbox row for each 2xx step, each DELIVERED, and as many
  // SlaClockChanged signals in the workflow's history as rows: fewer is a loss, more a duplicate.
  const okSteps = new Map<string, number>();
  for (const r of records) if (r.kind !== 'submit' && ok(r)) okSteps.set(r.key!, (okSteps.get(r.key!) ?? 0) + 1);
  const rows = new Map(
    (
      await sql<{ key: string; n: number; delivered: number }[]>`
        select business_key as key, count(*)::int as n, count(*) filter (where state = 'DELIVERED')::int as delivered
          from outbox where capability = 'SLA' and verb = 'signal' and tenant_id = ${TENANT} group by business_key`
    ).map((r) => [r.key, r]),
  );
  const signals = { answered2xx: 0, committedRows: 0, delivered: 0, historySignals: 0, lost: 0, duplicated: 0, committedWithout2xx: 0 };
  const clockIds = new Set([...okSteps.keys(), ...rows.keys()]);
  for (const id of clockIds) {
    const answered = okSteps.get(id) ?? 0;
    const row = rows.get(id) ?? { n: 0, delivered: 0 };
    const history = await client.workflow.getHandle(workflowIdFor('SLA', TENANT, id)).fetchHistory();
    const signalled = (history.events ?? []).filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'SlaClockChanged').length;
    signals.answered2xx += answered;
    signals.committedRows += row.n;
    signals.delivered += row.delivered;
    signals.historySignals += signalled;
    signals.lost += Math.max(0, answered - row.n) + (row.n - row.delivered) + Math.max(0, row.delivered - signalled);
    signals.duplicated += Math.max(0, signalled - row.n);
    signals.committedWithout2xx += Math.max(0, row.n - answered);
  }
  return {
    submissions: {
      answered2xx: okSubmits.length,
      lost: lostSubmits,
      duplicated: duplicateEvents + duplicateRuns,
      committedWithout2xx: Math.max(0, instances.size - okSubmits.length),
      workflows,
      lostSeen,
    },
    signals,
  };
}
