import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import type { Logger } from 'pino';
import type { Database, Tx } from '../db/client';
import { countOutboxFailure, observeOutboxDelivered } from '../integrations/metrics/outbox';
import { withTraceContext } from '../integrations/tracing/context';
import { claimDueRows, markAttemptFailed, markSignalOutcome, markStarted, OUTBOX_CHANNEL, type OutboxRow } from '../db/outbox';
import { NotifiedLoop } from './notified-loop';
import { BusinessKeyKey, CapabilityKey, TenantIdKey } from '../workflows/search-attributes';

/** What became of a signal row: delivered, or its workflow was not running (finished or never started). */
export type SignalDelivery = { outcome: 'DELIVERED'; runId: string | null } | { outcome: 'UNDELIVERABLE'; reason: string };

/** Sends signal and signal-with-start rows. */
export interface SignalSender {
  signal(row: OutboxRow): Promise<SignalDelivery>;
  signalWithStart(row: OutboxRow): Promise<SignalDelivery>;
}

export interface DispatcherOptions {
  database: Database;
  logger: Logger;
  /**
   * Starts one workflow; resolves to the run id of its first execution, also when it had already
   * been started (a repeat after a crash between the start and the commit of the row).
   */
  startWorkflow: (row: OutboxRow) => Promise<string | null>;
  /** Delivers signal rows; without it they stay QUEUED and count failed attempts. */
  signals?: SignalSender;
  capabilities: readonly string[];
  pollMs: number;
  batchSize: number;
  /** Batches claimed and delivered side by side (default 1). */
  parallelBatches?: number;
  maxAttempts: number;
  backoffMs: number;
}

const searchAttributes = (row: OutboxRow) => [
  { key: TenantIdKey, value: row.tenantId },
  { key: CapabilityKey, value: row.capability },
  { key: BusinessKeyKey, value: row.businessKey },
];

/**
 * The production start: workflow id from the business key, duplicate ids refused even after
 * completion. A repeat reads the existing execution's first run id, so the row keeps it.
 */
export function temporalStarter(client: Client, defaultTaskQueue: string) {
  return async (row: OutboxRow): Promise<string> => {
    try {
      const handle = await client.workflow.start(row.workflowType!, {
        taskQueue: row.taskQueue ?? defaultTaskQueue,
        workflowId: row.workflowId,
        args: row.args,
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        typedSearchAttributes: searchAttributes(row),
      });
      return handle.firstExecutionRunId;
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      const existing = await client.workflow.getHandle(row.workflowId).describe();
      // The chain's first run, as `firstExecutionRunId` names it, even after a continue-as-new.
      return existing.raw.workflowExecutionInfo?.firstRunId || existing.runId;
    }
  };
}

/**
 * The production signal sender. A signal to a workflow that has finished (or never ran) is
 * UNDELIVERABLE, recorded and not retried; a signal-with-start to a finished one likewise, since
 * its id may not be reused. Any other failure throws, and the row is retried with backoff.
 */
export function temporalSignaller(client: Client, defaultTaskQueue: string): SignalSender {
  return {
    async signal(row) {
      try {
        await client.workflow.getHandle(row.workflowId).signal(row.signalName!, ...(row.signalArgs ?? []));
        return { outcome: 'DELIVERED', runId: null };
      } catch (err) {
        if (err instanceof WorkflowNotFoundError) return { outcome: 'UNDELIVERABLE', reason: 'workflow not running (finished or never started)' };
        throw err;
      }
    },
    async signalWithStart(row) {
      try {
        const handle = await client.workflow.signalWithStart(row.workflowType!, {
          taskQueue: row.taskQueue ?? defaultTaskQueue,
          workflowId: row.workflowId,
          args: row.args,
          signal: row.signalName!,
          signalArgs: row.signalArgs ?? [],
          workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
          typedSearchAttributes: searchAttributes(row),
        });
        return { outcome: 'DELIVERED', runId: handle.signaledRunId };
      } catch (err) {
        if (err instanceof WorkflowExecutionAlreadyStartedError) return { outcome: 'UNDELIVERABLE', reason: 'workflow finished; its id is not reused' };
        throw err;
      }
    },
  };
}

/**
 * Turns QUEUED outbox rows into workflow starts and signals; the one place API-side code talks to
 * Temporal. Each batch is claimed FOR UPDATE SKIP LOCKED inside one transaction that stays open
 * while its deliveries run: if this process dies mid-batch the transaction aborts, the rows are
 * QUEUED again, and the next dispatcher repeats them (a repeated start is a no-op; a repeated
 * signal reaches the workflow twice, so payloads carry a key the workflow dedupes by).
 */
export class OutboxDispatcher {
  private readonly loop: NotifiedLoop;

  constructor(private readonly o: DispatcherOptions) {
    this.loop = new NotifiedLoop({
      sql: o.database.sql,
      channel: OUTBOX_CHANNEL,
      pollMs: o.pollMs,
      parallel: o.parallelBatches,
      batch: () => this.dispatchOnce(),
      onError: (err) => o.logger.error({ err }, 'outbox dispatch batch failed'),
    });
  }

  start() {
    return this.loop.start();
  }

  stop() {
    return this.loop.stop();
  }

  /** One claimed batch; returns how many rows it handled. */
  async dispatchOnce(): Promise<number> {
    const { database, capabilities, batchSize } = this.o;
    return database.db.transaction(async (tx) => {
      const rows = await claimDueRows(tx, capabilities, batchSize);
      // At most one row per workflow is due at a time (claimDueRows), so these may run side by side.
      await Promise.all(rows.map((row) => this.deliver(tx, row)));
      return rows.length;
    });
  }

  /** In the trace of the request that wrote the row: the workflow start joins it (Temporal's client interceptor). */
  private deliver(tx: Tx, row: OutboxRow) {
    return withTraceContext(row.traceContext, () => this.deliverRow(tx, row));
  }

  private async deliverRow(tx: Tx, row: OutboxRow) {
    try {
      if (row.verb === 'start') {
        await markStarted(tx, row.id, await this.o.startWorkflow(row));
        observeOutboxDelivered(row);
        return;
      }
      if (!this.o.signals) throw new Error('this dispatcher has no signal sender');
      const sent = row.verb === 'signal' ? await this.o.signals.signal(row) : await this.o.signals.signalWithStart(row);
      if (sent.outcome === 'UNDELIVERABLE') {
        this.o.logger.warn({ workflowId: row.workflowId, signal: row.signalName, reason: sent.reason }, 'outbox signal undeliverable');
        await markSignalOutcome(tx, row.id, 'UNDELIVERABLE', sent.reason);
      } else if (row.verb === 'signal-with-start') {
        await markStarted(tx, row.id, sent.runId);
        observeOutboxDelivered(row);
      } else {
        await markSignalOutcome(tx, row.id, 'DELIVERED');
        observeOutboxDelivered(row);
      }
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const failed = await markAttemptFailed(tx, row, message, this.o.maxAttempts, this.o.backoffMs);
      countOutboxFailure(row, failed);
      this.o.logger[failed ? 'error' : 'warn'](
        { businessKey: row.businessKey, capability: row.capability, verb: row.verb, attempt: row.retryCount + 1, err: message },
        failed ? 'outbox row FAILED after its last attempt' : 'outbox delivery failed; will retry',
      );
    }
  }
}
