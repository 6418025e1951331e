import { Gauge } from 'prom-client';
import type postgres from 'postgres';
import { metricsRegistry } from './registry';

// postgres.js keeps its connection queues private, so the pool is measured around its two entry
// points that hold a connection: `unsafe` (every drizzle statement outside a transaction) and
// `begin` (a transaction holds one connection until it ends). Work beyond the pool size is queued
// by the driver: that is the "waiting" figure.
let open = 0;
let size = 0;

new Gauge({
  name: 'platform_db_pool_in_use',
  help: 'Pool connections busy with a statement or an open transaction of this process (drizzle queries; tagged-template sql is not counted).',
  registers: [metricsRegistry],
  collect() {
    this.set(Math.min(open, size));
  },
});

new Gauge({
  name: 'platform_db_pool_waiting',
  help: 'Statements and transactions of this process queued by the driver for a free pool connection.',
  registers: [metricsRegistry],
  collect() {
    this.set(Math.max(0, open - size));
  },
});

new Gauge({
  name: 'platform_db_pool_size',
  help: 'Connections the pool may open (setting database.pool-size).',
  registers: [metricsRegistry],
  collect() {
    this.set(size);
  },
});

/** Counts the pool's busy connections; call once on the process's own client. */
export function measurePool(sql: postgres.Sql, poolSize: number) {
  size = poolSize;
  const unsafe = sql.unsafe.bind(sql);
  const begin = sql.begin.bind(sql) as (...args: unknown[]) => Promise<unknown>;
  sql.unsafe = ((...args: Parameters<typeof unsafe>) => settleCounted(unsafe(...args))) as typeof sql.unsafe;
  (sql as { begin: unknown }).begin = async (...args: unknown[]) => {
    open++;
    try {
      return await begin(...args);
    } finally {
      open--;
    }
  };
}

/**
 * postgres.js runs a query when it is first awaited (and after `.values()` and friends are set),
 * so the count starts at the first `then`, not at creation: a query built and never run is never counted.
 */
function settleCounted<Q extends PromiseLike<unknown>>(query: Q): Q {
  const then = query.then.bind(query);
  let counted = false;
  (query as { then: unknown }).then = (onFulfilled?: (v: unknown) => unknown, onRejected?: (e: unknown) => unknown) => {
    if (counted) return then(onFulfilled, onRejected);
    counted = true;
    open++;
    return then(
      (value) => {
        open--;
        return onFulfilled ? onFulfilled(value) : value;
      },
      (err) => {
        open--;
        if (onRejected) return onRejected(err);
        throw err;
      },
    );
  };
  return query;
}
