// The claim loop the outbox dispatcher and the form event correlator share: run a batch, run the
// next one at once while batches find work or a NOTIFY arrived meanwhile, otherwise sleep until the
// channel's NOTIFY or the polling fallback, whichever comes first.
import type postgres from 'postgres';

export interface NotifiedLoopOptions {
  sql: postgres.Sql;
  channel: string;
  pollMs: number;
  /** One batch; answers how many items it handled. */
  batch: () => Promise<number>;
  onError: (err: unknown) => void;
}

export class NotifiedLoop {
  private stopped = false;
  /** Set by NOTIFY; a notice that lands while a batch runs is not lost. */
  private notified = false;
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(private readonly o: NotifiedLoopOptions) {}

  async start() {
    const listener = await this.o.sql.listen(this.o.channel, () => {
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
      // A handled item may have released the next one (a workflow's next row, an instance's next event).
      if (handled > 0 || this.notified) continue;
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
