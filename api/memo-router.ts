import type { Result, Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';

/** Paths remembered, all methods together; past this the memo starts over (a client can send any path). */
const MAX_PATHS = 2_000;
/** Longer paths are matched every time: the memo holds at most MAX_PATHS × this many characters. */
const MAX_PATH_CHARS = 256;

/**
 * Hono's default router (SmartRouter over RegExpRouter and TrieRouter), remembering the match of
 * each path that binds no parameter. RegExpRouter refuses this app's routes (UnsupportedPathError,
 * first at `/api/internal/documents/:docId/finalize`), so SmartRouter settles on TrieRouter and
 * every request walked its tree of some 1,250 routes and middleware, a measurable part of a cached
 * guarded read (bench/access.bench.ts); a remembered match is one map lookup. A match is never
 * changed by its users (RegExpRouter hands out the same result for a static path on every request
 * too), and the routes are fixed once the first request is matched, so a remembered match stays
 * right. A path with parameters (`/api/documents/:id`) is matched every time: its values are the
 * request's own.
 */
export class MemoRouter<T> implements Router<T> {
  name = 'MemoRouter';
  private readonly inner: Router<T> = new SmartRouter<T>({ routers: [new RegExpRouter<T>(), new TrieRouter<T>()] });
  private readonly byMethod = new Map<string, Map<string, Result<T>>>();
  private size = 0;

  add(method: string, path: string, handler: T): void {
    this.inner.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    let paths = this.byMethod.get(method);
    const known = paths?.get(path);
    if (known) return known;
    const result = this.inner.match(method, path);
    if (path.length <= MAX_PATH_CHARS && !bindsParameters(result)) {
      if (this.size >= MAX_PATHS) {
        this.byMethod.clear();
        this.size = 0;
        paths = undefined;
      }
      if (!paths) this.byMethod.set(method, (paths = new Map()));
      paths.set(path, result);
      this.size++;
    }
    return result;
  }
}

function bindsParameters<T>([handlers]: Result<T>): boolean {
  for (const [, params] of handlers) for (const _ in params) return true;
  return false;
}
