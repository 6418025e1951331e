// The statement that settles a call also writes its PhoneCallEnded outbox row (db/queries/phone.ts,
// db/outbox.ts signalRowsFrom). These tests hold it to the outbox rules: exactly one row per ended
// call under parallel deliveries, after the call's start row; the workflow's lock taken before the
// row draws its seq; the dispatchers woken once it committed; the trace context of each request.
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { enqueueSignal, OUTBOX_CHANNEL, workflowIdFor } from '../../../db/outbox';
import { PhoneCallProcess } from '../../../domain/phone/call-process';
import { startTracing } from '../../../integrations/tracing/tracing';
import { endOfCallReport, statusUpdate } from '../../stand-ins/vapi/messages';
import { postWebhook, readCall, seedPhoneTenant, seedTrackedCall, usePhoneApp } from '../../support/phone';

// Started before the app is built, as in production with tracing configured: every request has a
// trace, and the outbox row must carry its own request's.
startTracing({ serviceName: 'platform-test', exporter: new InMemorySpanExporter() });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}
const traceparent = () => {
  const traceId = randomBytes(16).toString('hex');
  return { traceId, header: `00-${traceId}-${randomBytes(8).toString('hex')}-01` };
};
function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('webhook: the PhoneCallEnded row written by the settling statement', () => {
  const ctx = usePhoneApp();
  let t: Awaited<ReturnType<typeof seedPhoneTenant>>;

  beforeAll(async () => {
    t = await seedPhoneTenant(ctx);
  });

  const rowsOf = (callId: string) =>
    ctx.db.sql<{ verb: string; seq: string; workflow_id: string; signal_name: string | null; signal_args: unknown; trace_context: Record<string, string> | null }[]>`
      select verb, seq, workflow_id, signal_name, signal_args, trace_context from outbox
      where capability = 'PHONE' and tenant_id = ${t.id} and business_key = ${callId} order by seq`;

  it('parallel deliveries for one call, 10 rounds: exactly one PhoneCallEnded row, after the start row, for the call\'s workflow', async () => {
    for (let round = 0; round < 10; round++) {
      const c = await seedTrackedCall(ctx, t.id, round % 2 ? 'QUEUED' : 'RINGING');
      const report = endOfCallReport({ callId: c.providerCallId, endedReason: 'customer-ended-call', transcript: `round ${round}` });
      const bodies = shuffled([
        report,
        report,
        report,
        report,
        statusUpdate({ callId: c.providerCallId, status: 'ringing' }),
        statusUpdate({ callId: c.providerCallId, status: 'in-progress' }),
      ]);
      const trace = traceparent();
      const answers = await Promise.all(bodies.map((b) => postWebhook(ctx, b, { traceparent: trace.header })));
      expect(answers.every((a) => a.status === 200)).toBe(true);

      const rows = await rowsOf(c.id);
      expect(rows.map((r) => r.verb)).toEqual(['start', 'signal']);
      const [start, signal] = rows;
      expect(BigInt(signal!.seq)).toBeGreaterThan(BigInt(start!.seq));
      expect(signal).toMatchObject({
        workflow_id: workflowIdFor('PHONE', t.id, c.id),
        signal_name: PhoneCallProcess.signals.ended.name,
        signal_args: [{ callId: c.id, status: 'ENDED', endedReason: 'customer-ended-call' }],
      });
      expect(signal!.trace_context?.traceparent).toContain(trace.traceId);
      expect(await readCall(ctx, c.id)).toMatchObject({ status: 'ENDED', transcript: `round ${round}` });
    }
  });

  it('takes the workflow\'s lock before its row draws a seq: it waits for an open enqueue of the same workflow and orders after it', async () => {
    const c = await seedTrackedCall(ctx, t.id, 'IN_PROGRESS');
    const [{ seq_name: seqName }] = (await ctx.db.sql`select pg_get_serial_sequence('outbox', 'seq') as seq_name`) as unknown as [{ seq_name: string }];
    const lastSeq = async () => String(((await ctx.db.sql.unsafe(`select last_value from ${seqName}`)) as unknown as [{ last_value: string }])[0].last_value);
    const waitingOnAdvisoryLock = async () => {
      const [row] = await ctx.db.sql`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and wait_event = 'advisory'`;
      return (row!.n as number) > 0;
    };

    // Another transaction enqueues for the call's workflow and stays open: it holds the lock.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let holding!: () => void;
    const held = new Promise<void>((r) => (holding = r));
    const writer = ctx.db.db.transaction(async (tx) => {
      await enqueueSignal(tx, { capability: 'PHONE', tenantId: t.id, businessKey: c.id }, PhoneCallProcess.signals.ended, {
        callId: c.id,
        status: 'FAILED',
        endedReason: 'earlier-writer',
      });
      holding();
      await released;
    });
    await held;
    const before = await lastSeq();

    const webhook = postWebhook(ctx, endOfCallReport({ callId: c.providerCallId, endedReason: 'customer-ended-call' }));
    await until('the settling statement to wait for the workflow lock', waitingOnAdvisoryLock);
    // It waits with no seq drawn, and its change to the call is not visible either: one statement.
    expect(await lastSeq()).toBe(before);
    expect(await readCall(ctx, c.id)).toMatchObject({ status: 'IN_PROGRESS', endSource: null });

    release();
    await writer;
    expect((await webhook).status).toBe(200);
    const rows = await rowsOf(c.id);
    expect(rows.map((r) => [r.verb, (r.signal_args as { endedReason: string }[] | null)?.[0]?.endedReason ?? null])).toEqual([
      ['start', null],
      ['signal', 'earlier-writer'],
      ['signal', 'customer-ended-call'],
    ]);
    expect(BigInt(rows[2]!.seq)).toBeGreaterThan(BigInt(before));
  });

  it('a terminal status-update writes its row in the same statement too; a message that ends nothing writes none', async () => {
    const c = await seedTrackedCall(ctx, t.id, 'IN_PROGRESS');
    await postWebhook(ctx, statusUpdate({ callId: c.providerCallId, status: 'ended', endedReason: 'call.start.error-get-org' }));
    await postWebhook(ctx, statusUpdate({ callId: c.providerCallId, status: 'ended', endedReason: 'call.start.error-get-org' }));
    await postWebhook(ctx, statusUpdate({ callId: c.providerCallId, status: 'in-progress' }));
    const rows = await rowsOf(c.id);
    expect(rows.map((r) => r.verb)).toEqual(['start', 'signal']);
    expect(rows[1]!.signal_args).toEqual([{ callId: c.id, status: 'FAILED', endedReason: 'call.start.error-get-org' }]);

    // A closed process gets no signal: the call ends, nothing is written for it.
    const closed = await seedTrackedCall(ctx, t.id, 'IN_PROGRESS');
    await ctx.db.sql`update phone_calls set process_status = 'CLOSED' where id = ${closed.id}`;
    await postWebhook(ctx, endOfCallReport({ callId: closed.providerCallId, endedReason: 'customer-ended-call' }));
    expect(await readCall(ctx, closed.id)).toMatchObject({ status: 'ENDED' });
    expect((await rowsOf(closed.id)).map((r) => r.verb)).toEqual(['start']);
  });

  it('wakes the dispatchers once the statement committed (NOTIFY on the outbox channel)', async () => {
    const heard: string[] = [];
    const listener = await ctx.db.sql.listen(OUTBOX_CHANNEL, (payload) => heard.push(payload));
    try {
      const c = await seedTrackedCall(ctx, t.id, 'IN_PROGRESS');
      heard.length = 0;
      await postWebhook(ctx, endOfCallReport({ callId: c.providerCallId, endedReason: 'customer-ended-call' }));
      await until('a PHONE wake-up', async () => heard.includes('PHONE'));
    } finally {
      await listener.unlisten();
    }
  });
});
