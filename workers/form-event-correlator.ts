// The forms event rail's correlator (docs/forms.md "Event rail"): runs beside the outbox dispatcher
// in the worker process. Woken by the form_instances triggers' NOTIFY, with a polling fallback;
// batches are claimed FOR UPDATE SKIP LOCKED, so any number of nodes may run one.
import type { Logger } from 'pino';
import type { Database } from '../db/client';
import type { Settings } from '../domain/settings';
import { deliverFormEvents, type EventRailOptions } from '../services/forms/event-rail';
import { FORM_EVENT_CHANNEL } from '../services/forms/event-rail-rows';
import { NotifiedLoop } from './notified-loop';

export class FormEventCorrelator {
  private readonly loop: NotifiedLoop;

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
    private readonly options: EventRailOptions & { pollMs: number },
  ) {
    this.loop = new NotifiedLoop({
      sql: database.sql,
      channel: FORM_EVENT_CHANNEL,
      pollMs: options.pollMs,
      batch: () => this.correlateOnce(),
      onError: (err) => logger.error({ err }, 'form event batch failed'),
    });
  }

  static fromSettings(database: Database, logger: Logger, settings: Settings) {
    return new FormEventCorrelator(database, logger.child({ component: 'form-event-correlator' }), {
      pollMs: settings['forms.event-rail.poll-ms'],
      batchSize: settings['forms.event-rail.batch-size'],
      maxAttempts: settings['forms.event-rail.max-attempts'],
      backoffMs: settings['forms.event-rail.backoff-ms'],
    });
  }

  start() {
    return this.loop.start();
  }

  stop() {
    return this.loop.stop();
  }

  /** One batch; answers how many events it handled. */
  correlateOnce(): Promise<number> {
    return deliverFormEvents(this.database.db, this.logger, this.options);
  }
}
