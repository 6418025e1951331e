import { AsyncLocalStorage } from 'node:async_hooks';
import { ROOT_CONTEXT, type Context, type ContextManager } from '@opentelemetry/api';

/**
 * Whether this Node keeps AsyncLocalStorage on async_hooks: then, once any storage is entered,
 * every promise the process creates runs an init hook (about 0.2 µs each, so several µs for a
 * request of a few dozen awaits), whether or not anything traced is running. Node 24 (and 22 with
 * --experimental-async-context-frame) carries the context in a frame instead, at no such cost.
 */
function storesOnAsyncHooks(): boolean {
  const major = Number(process.versions.node.split('.')[0]);
  const flags = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  if (major >= 24) return flags.includes('--no-async-context-frame');
  return !flags.includes('--experimental-async-context-frame');
}

/**
 * OpenTelemetry's active context in an AsyncLocalStorage, like the SDK's own manager, except that
 * where the storage rests on async_hooks it is switched off whenever no `with` scope is open: a
 * scope counts as open until the promise its function returned settles (or at once, for a function
 * that returns anything else). So a process that is not running traced work pays nothing per
 * promise, which is what a request drawn out of the sample would otherwise pay for every traced
 * write or export that ever ran before it (bench/access-observability.bench.ts).
 *
 * What a scope starts and does not await (a timer, a detached promise) and that runs while no scope
 * is open sees the root context; the platform's traced work (a request, an outbox delivery, an
 * activity) is awaited by the scope that opened it.
 */
export class ScopedContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();
  private readonly switchesOff = storesOnAsyncHooks();
  private open = 0;

  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(context: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    const call = thisArg === undefined ? fn : (fn.bind(thisArg) as F);
    if (!this.switchesOff) return this.storage.run(context, call, ...args);
    this.open++;
    let result: ReturnType<F>;
    try {
      result = this.storage.run(context, call, ...args);
    } catch (err) {
      this.close();
      throw err;
    }
    const pending = result as { then?: unknown };
    if (pending !== null && typeof pending === 'object' && typeof pending.then === 'function') {
      (result as PromiseLike<unknown>).then(this.close, this.close);
    } else {
      this.close();
    }
    return result;
  }

  private readonly close = () => {
    if (--this.open === 0) this.storage.disable();
  };

  bind<T>(context: Context, target: T): T {
    if (typeof target !== 'function') return target;
    const manager = this;
    const fn = target as unknown as (...args: unknown[]) => unknown;
    return function (this: unknown, ...args: unknown[]) {
      return manager.with(context, () => fn.apply(this, args));
    } as unknown as T;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.storage.disable();
    this.open = 0;
    return this;
  }
}
