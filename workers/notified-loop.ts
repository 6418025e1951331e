// The claim loop the outbox dispatcher and the form event correlator share: run a batch, run the
// next one at once while batches find work or a NOTIFY arrived meanwhile, otherwise sleep until the
// channel's NOTIFY or the polling fallback, whichever comes first. With `parallel` > 1 that many
// loops run side by side (their claims skip each other's locked rows), so one slow batch does not
// hold back the next. A NOTIFY wakes one sleeping loop, and a loop whose batch found work wakes one
// more: a trickle of rows costs one claim each, a backlog soon has every loop claiming.
import type postgres from 'postgres';

export interface NotifiedLoopOptions {
  sql: postgres.Sql;
  channel: string;
  pollMs: number;
  /** One batch; answers how many items it handled. */
  batch: () => Promise<number>;
  /** Loops running side by side; default 1. */
  parallel?: number;
  onError: (err: unknown) => void;
}

export class NotifiedLoop {
  private stopped = false;
  /** Set by NOTIFY; a notice that lands while a batch runs is not lost. */
  private notified = false;
  private readonly wakes = new Set<() => void>();
  private loops: Promise<void>[] = [];
  private unlisten: (() => Promise<void>) | undefined;

  constructor(private readonly o: NotifiedLoopOptions) {}

  async start() {
    const listener = await this.o.sql.listen(this.o.channel, () => {
      this.notified = true;
      this.wakeOne();
    });
    this.unlisten = () => listener.unlisten();
    this.loops = Array.from({ length: Math.max(1, this.o.parallel ?? 1) }, () => this.run());
  }

  async stop() {
    this.stopped = true;
    this.wakeAll();
    await Promise.all(this.loops);
    await this.unlisten?.().catch(() => {});
  }

  private async run() {
    while (!this.stopped) {
      let handled = 0;
      this.notified = false;
      try {
        handled = await this.o.batch();
      } catch (err) {
        this.o.onError(err);
      }
      if (this.stopped) break;
      // A handled item may have released the next one (a workflow's next row, an instance's next event),
      // and there may be more: another loop joins in.
      if (handled > 0) this.wakeOne();
      if (handled > 0 || this.notified) continue;
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.wakes.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, this.o.pollMs);
        this.wakes.add(wake);
      });
    }
  }

  private wakeOne() {
    const [wake] = this.wakes;
    wake?.();
  }

  private wakeAll() {
    for (const wake of [...this.wakes]) wake();
  }
}
