import { Context } from '@temporalio/activity';

/**
 * How often a long activity tells Temporal its worker is alive. The workflows that schedule one
 * set a heartbeat timeout of a few of these (20 s), so an activity on a worker that died runs
 * again in seconds, not after its start-to-close timeout (which must cover the slowest honest
 * run: a webhook POST of up to 2 minutes, a scan of a document at the size cap).
 */
export const ACTIVITY_HEARTBEAT_MS = 5_000;

/** Runs `work` inside the current activity, heartbeating every `everyMs` until it settles. */
export async function whileHeartbeating<T>(work: () => Promise<T>, everyMs = ACTIVITY_HEARTBEAT_MS): Promise<T> {
  const activity = Context.current();
  const alive = setInterval(() => activity.heartbeat(), everyMs);
  try {
    return await work();
  } finally {
    clearInterval(alive);
  }
}
