import type { Context, MiddlewareHandler, Next } from 'hono';
import type { AppEnv } from '../env';
import { onError } from './errors';

/**
 * Runs `inner` as Hono's compose runs a layer of its own: an Error it throws becomes the app's
 * error answer here, so the layer that called it still sees an answer (its log line, figures and
 * invalidation) rather than a rejection. For layers another layer calls directly, where one more
 * step of compose was a measurable part of a cached guarded read (bench/access.bench.ts).
 */
export async function asOwnLayer(c: Context<AppEnv>, inner: MiddlewareHandler<AppEnv>, next: Next): Promise<void> {
  let res: Response | void;
  try {
    res = await inner(c, next);
  } catch (err) {
    if (!(err instanceof Error)) throw err;
    c.error = err;
    c.res = await onError(err, c);
    return;
  }
  if (res instanceof Response && !c.finalized) c.res = res;
}
