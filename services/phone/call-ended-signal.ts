import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Logger } from 'pino';
import { workflowIdFor } from '../../db/outbox';
import type { PhoneCallRow } from '../../db/queries/phone';
import { PHONE_CALL_ENDED_SIGNAL, PHONE_CAPABILITY, type PhoneCallEnded } from '../../domain/phone/call-process';

/** A webhook answer must not wait on a slow Temporal frontend; the process settles itself anyway. */
const SIGNAL_TIMEOUT_MS = 3_000;

export type SignalOutcome = 'signalled' | 'not-running' | 'no-client' | 'failed';

/**
 * Correlates PhoneCallEnded into the call's process (spec, Events 3). Never throws: a process
 * that has not started yet reads the terminal state when it starts, and one that misses the
 * signal for any other reason settles by reconciliation; failures are only logged.
 */
export async function signalCallEnded(temporal: Client | undefined, log: Logger, call: PhoneCallRow): Promise<SignalOutcome> {
  if (call.status !== 'ENDED' && call.status !== 'FAILED') return 'failed';
  const workflowId = workflowIdFor(PHONE_CAPABILITY, call.tenantId, call.businessKey);
  if (!temporal) {
    log.debug({ callId: call.id, workflowId }, 'no Temporal client: PhoneCallEnded not sent (the process reads the state)');
    return 'no-client';
  }
  const payload: PhoneCallEnded = { callId: call.id, status: call.status, endedReason: call.endedReason };
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      temporal.workflow.getHandle(workflowId).signal(PHONE_CALL_ENDED_SIGNAL, payload),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${SIGNAL_TIMEOUT_MS} ms`)), SIGNAL_TIMEOUT_MS);
      }),
    ]);
    log.info({ callId: call.id, workflowId, status: call.status }, 'PhoneCallEnded signalled');
    return 'signalled';
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) {
      log.info({ callId: call.id, workflowId }, 'call process not running (not started yet, or closed); it reads the state itself');
      return 'not-running';
    }
    log.warn({ callId: call.id, workflowId, err: err instanceof Error ? err.message : String(err) }, 'PhoneCallEnded signal failed');
    return 'failed';
  } finally {
    clearTimeout(timer);
  }
}
