import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import type { Logger } from 'pino';
import type { Database } from '../db/client';
import { claimDueRows, markAttemptFailed, markStarted, OUTBOX_CHANNEL, type OutboxRow } from '../db/outbox';
import { BusinessKeyKey, CapabilityKey, TenantIdKey } from '../workflows/search-attributes';

export interface DispatcherOptions {
  database: Database;
  logger: Logger;
  /** Starts one workflow; resolves to its run id, or null when it had already been started. */
  startWorkflow: (row: OutboxRow) => Promise<string | null>;
  capabilities: readonly string[];
  pollMs: number;
  batchSize: number;
  maxAttempts: number;
  backoffMs: number;
}

/** The production start: workflow id from the business key, duplicate ids refused even after completion. */
export function temporalStarter(client: Client, defaultTaskQueue: string) {
  return async (row: OutboxRow): Promise<string | null> => {
    try {
      const handle = await client.workflow.start(row.workflowType, {
        taskQueue: row.taskQueue ?? defaultTaskQueue,
        workflowId: row.workflowId,
        args: row.args,
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        typedSearchAttributes: [
          { key: TenantIdKey, value: row.tenantId },
          { key: CapabilityKey, value: row.capability },
          { key: BusinessKeyKey, value: row.businessKey },
        ],
      });
      return handle.firstExecutionRunId;
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError) return null;
      throw err;
    }
  };
}

/**
 * Turns QUEUED outbox rows into workflow starts. Each batch is claimed FOR UPDATE SKIP LOCKED
 * inside one transaction that stays open while its starts run: if this process dies mid-batch
 * the transaction aborts, the rows are QUEUED again, and the next dispatcher's repeated start of
 * an already-started workflow counts as success.
 */
export class OutboxDispatcher {
  private stopped = false;
  /** Set by NOTIFY; a notice that lands while a batch runs is not lost. */
  private notified = false;
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(private readonly o: DispatcherOptions) {}

  async start() {
    const listener = await this.o.database.sql.listen(OUTBOX_CHANNEL, () => {
      this.notified = true;
      this.wake?.();
    });
    this.unlisten = () => listener.unlisten();
    this.loop = this.run();
  }

  async stop() {
    this.stopped = true;
    this.wake?.();
    await this.loop;
    await this.unlisten?.().catch(() => {});
  }

  /** One claimed batch; returns how many rows it handled. */
  async dispatchOnce(): Promise<number> {
    const { database, capabilities, batchSize } = this.o;
    return database.db.transaction(async (tx) => {
      const rows = await claimDueRows(tx, capabilities, batchSize);
      await Promise.all(
        rows.map(async (row) => {
          try {
            const runId = await this.o.startWorkflow(row);
            await markStarted(tx, row.id, runId);
          } catch (err) {
            const message = err instanceof Error ? err.message : String(err);
            const failed = await markAttemptFailed(tx, row, message, this.o.maxAttempts, this.o.backoffMs);
            this.o.logger[failed ? 'error' : 'warn'](
              { businessKey: row.businessKey, capability: row.capability, attempt: row.retryCount + 1, err: message },
              failed ? 'outbox row FAILED after its last attempt' : 'workflow start failed; will retry',
            );
          }
        }),
      );
      return rows.length;
    });
  }

  private async run() {
    while (!this.stopped) {
      let handled = 0;
      this.notified = false;
      try {
        handled = await this.dispatchOnce();
      } catch (err) {
        this.o.logger.error({ err }, 'outbox dispatch batch failed');
      }
      if (this.stopped) break;
      if (handled >= this.o.batchSize || this.notified) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.o.pollMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }
}
