// The forms event rail's correlator (docs/forms.md "Event rail"): runs beside the outbox dispatcher
// in the worker process. Woken by the form_instances triggers' NOTIFY, with a polling fallback;
// batches are claimed FOR UPDATE SKIP LOCKED, so any number of nodes may run one.
import type { Logger } from 'pino';
import type { Database } from '../db/client';
import type { Settings } from '../domain/settings';
import { deliverFormEvents, type EventRailOptions } from '../services/forms/event-rail';
import { FORM_EVENT_CHANNEL } from '../services/forms/event-rail-rows';

export class FormEventCorrelator {
  private stopped = false;
  /** Set by NOTIFY; a notice that lands while a batch runs is not lost. */
  private notified = false;
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
    private readonly options: EventRailOptions & { pollMs: number },
  ) {}

  static fromSettings(database: Database, logger: Logger, settings: Settings) {
    return new FormEventCorrelator(database, logger.child({ component: 'form-event-correlator' }), {
      pollMs: settings['forms.event-rail.poll-ms'],
      batchSize: settings['forms.event-rail.batch-size'],
      maxAttempts: settings['forms.event-rail.max-attempts'],
      backoffMs: settings['forms.event-rail.backoff-ms'],
    });
  }

  async start() {
    const listener = await this.database.sql.listen(FORM_EVENT_CHANNEL, () => {
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

  /** One batch; answers how many events it handled. */
  correlateOnce(): Promise<number> {
    return deliverFormEvents(this.database.db, this.logger, this.options);
  }

  private async run() {
    while (!this.stopped) {
      this.notified = false;
      let handled = 0;
      try {
        handled = await this.correlateOnce();
      } catch (err) {
        this.logger.error({ err }, 'form event batch failed');
      }
      if (this.stopped) break;
      // A full batch may have left more due events, and an instance's next event is due once its earlier one is handled.
      if (handled > 0 || this.notified) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.options.pollMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }
}
