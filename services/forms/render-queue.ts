// Submission PDF renders on one node: `render.concurrency` at a time (default one) behind a bounded
// queue of `render.queue-size` waiting renders (spec "Render concurrency"). A render arriving
// when the queue is full is refused at once with 503 `render-queue-full` and a Retry-After hint
// (seconds) estimated from recent render times; nothing waits unboundedly and no render is started
// that the node cannot finish. Waiting renders start in arrival order; a failing render frees its
// slot like a succeeding one.
import { AppError } from '../../domain/errors';

export interface RenderQueueOptions {
  concurrency: number;
  queueSize: number;
  /** Render time assumed before any render finished (ms), for the Retry-After hint. */
  initialEstimateMs?: number;
}

export class RenderQueue {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private averageMs: number;

  constructor(private readonly options: RenderQueueOptions) {
    this.averageMs = options.initialEstimateMs ?? 2_000;
  }

  get running(): number {
    return this.active;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Seconds until a slot is likely free: the queue ahead, at the recent average render time. */
  retryAfterSeconds(): number {
    const ahead = this.waiting.length + 1;
    return Math.max(1, Math.ceil((ahead * this.averageMs) / this.options.concurrency / 1000));
  }

  /** Runs `task` when a slot is free; throws 503 `render-queue-full` at once when the queue is full. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.options.concurrency) {
      if (this.waiting.length >= this.options.queueSize) {
        const retryAfterSeconds = this.retryAfterSeconds();
        throw new AppError('render-queue-full', `PDF renders are saturated on this node; retry in ${retryAfterSeconds} s`, { retryAfterSeconds });
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active += 1;
    }
    // The slot is ours here (handed over by release() when we waited).
    const started = Date.now();
    try {
      return await task();
    } finally {
      this.averageMs = 0.7 * this.averageMs + 0.3 * (Date.now() - started);
      this.release();
    }
  }

  /** Hands the slot to the next waiting render, or frees it. */
  private release() {
    const next = this.waiting.shift();
    if (next) next();
    else this.active -= 1;
  }
}
