import pino, { type Logger } from 'pino';

const { chindingsSym } = pino.symbols;
const BINDINGS = Symbol('request log bindings');
const CHILD = Symbol('request log child');

type Lazy = Logger & { [BINDINGS]: Record<string, string>; [CHILD]?: Logger };

/**
 * Children of `parent` that pino builds only when they first write. A request's logger is made
 * for every request (its id on every line), but on a request that logs nothing (a cached guarded
 * read below `info`) pino's `child()`, about a µs with its serialised bindings, was spent for no
 * line at all (bench/access.bench.ts).
 *
 * A lazy child is an object whose prototype is `parent`, so it is a pino Logger in every respect
 * (levels, `child()`, `bindings()`, `setBindings()`, serializers, redaction, mixin); only its
 * bindings string, which pino reads through `pino.symbols.chindingsSym` when it writes a line or
 * makes a child, comes from a real `parent.child(bindings)` built on that first read. The lines
 * are the ones that child would write.
 */
export function lazyChildren(parent: Logger): (bindings: Record<string, string>) => Logger {
  const shared = Object.create(parent, {
    [chindingsSym]: {
      get(this: Lazy) {
        return ((this[CHILD] ??= parent.child(this[BINDINGS])) as unknown as Record<symbol, string>)[chindingsSym];
      },
      // `setBindings()` and children of this one store their own bindings string.
      set(this: Lazy, value: string) {
        Object.defineProperty(this, chindingsSym, { value, writable: true, enumerable: true, configurable: true });
      },
      configurable: true,
    },
  }) as Logger;
  return (bindings) => {
    const log = Object.create(shared) as Lazy;
    log[BINDINGS] = bindings;
    return log;
  };
}
