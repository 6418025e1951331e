import { ApplicationFailure, Context } from '@temporalio/activity';
import type { PhoneCallRow } from '../db/queries/phone';
import type { ReconcilePolicy } from '../domain/phone/call-process';
import type { PhoneCallStatus } from '../domain/phone/call-fields';
import { isTerminal } from '../domain/phone/call-status';
import { resolvePhoneActionInputs, type PhoneActionNode } from '../domain/phone/workflow-action';
import { dialScheduledCall, scheduleRedial, type ScheduledAttempt, type ScheduledDial } from '../services/phone/call-chain';
import { closeCallProcess, openCallProcess } from '../services/phone/call-events';
import { placeOutboundCall } from '../services/phone/placement';
import { reconcileCall, type ReconcileOutcome } from '../services/phone/reconcile-call';
import type { CoreActivityDeps } from './deps';
import { toActivityFailure } from './failures';

/** Input of the phone workflow action: the node as designed plus the caller's variables. */
export interface PhoneActionRequest {
  tenantId: string;
  node: PhoneActionNode;
  variables?: Record<string, unknown>;
  /** Recorded as initiator; defaults to `workflow:<calling workflow id>`. */
  initiatedBy?: string;
}

/** What the calling workflow gets back; FAILED with errorMessage when the provider refused. */
export interface PlacedPhoneCall {
  id: string;
  status: PhoneCallStatus;
  providerCallId: string | null;
  errorMessage: string | null;
  customerNumber: string | null;
  assistantId: string | null;
  phoneNumberId: string | null;
}

export interface OpenedCallProcess {
  status: PhoneCallStatus;
  terminal: boolean;
  reconcile: ReconcilePolicy;
  /** When a SCHEDULED call is due (epoch ms). */
  scheduledFor?: number | null;
  /** The call has a redial policy: the process asks after each attempt whether another follows. */
  redial?: boolean;
}

const placed = (c: PhoneCallRow): PlacedPhoneCall => ({
  id: c.id,
  status: c.status,
  providerCallId: c.providerCallId,
  errorMessage: c.errorMessage,
  customerNumber: c.customerNumber,
  assistantId: c.assistantId,
  phoneNumberId: c.phoneNumberId,
});

export function createPhoneActivities(deps: CoreActivityDeps) {
  const { db, settings } = deps;
  const logger = deps.logger.child({ component: 'phone-activities' });

  return {
    /**
     * The workflow action (capability `phone`, node type `phone` or `call`). Retries of this
     * activity reuse one placement key, so a retried attempt never dials the customer twice.
     */
    async placePhoneCall(req: PhoneActionRequest): Promise<PlacedPhoneCall> {
      const resolved = resolvePhoneActionInputs(req.node, req.variables ?? {});
      if (!resolved.ok) {
        throw ApplicationFailure.nonRetryable(`Phone action rejected: ${resolved.problems.join('; ')}`, 'PhoneActionInvalid', {
          problems: resolved.problems,
        });
      }
      const info = Context.current().info;
      // Standalone activities (no calling workflow) key on their own activity id.
      const workflowId = info.workflowExecution?.workflowId ?? 'standalone';
      const runId = info.workflowExecution?.runId ?? info.activityId;
      try {
        const { call } = await placeOutboundCall(deps, {
          tenantId: req.tenantId,
          initiatedBy: req.initiatedBy ?? `workflow:${workflowId}`,
          ...resolved.inputs,
          placementKey: `wf:${workflowId}:${runId}:${info.activityId}`,
        });
        return placed(call);
      } catch (err) {
        throw toActivityFailure(err);
      }
    },

    /** First step of a call process: stamps the run id and answers whether the call already ended. */
    async openPhoneCallProcess(tenantId: string, callId: string): Promise<OpenedCallProcess | null> {
      const info = Context.current().info;
      const runId = info.workflowExecution?.runId ?? info.activityId;
      const row = await openCallProcess(db, tenantId, callId, runId);
      if (!row) {
        logger.error({ tenantId, callId }, 'call process started for a call that does not exist');
        return null;
      }
      return {
        status: row.status,
        terminal: isTerminal(row.status),
        scheduledFor: row.scheduledFor?.getTime() ?? null,
        redial: row.redial !== null,
        reconcile: {
          afterMs: settings['phone.reconcile-after-ms'],
          retryMs: settings['phone.reconcile-retry-ms'],
          maxAttempts: settings['phone.reconcile-max-attempts'],
        },
      };
    },

    /** No PhoneCallEnded in time: ask the provider and settle from its answer. Never throws on provider trouble. */
    async reconcilePhoneCall(tenantId: string, callId: string, attempt: number): Promise<ReconcileOutcome> {
      return reconcileCall({ db, settings, log: logger }, { tenantId, callId, attempt });
    },

    /** A SCHEDULED call is due: checked again (cancelled, listed, window moved), then dialled. */
    async dialScheduledPhoneCall(tenantId: string, callId: string): Promise<ScheduledDial> {
      return dialScheduledCall({ db, settings, log: logger.child({ tenantId, callId }) }, { tenantId, callId });
    },

    /** An attempt ended: the next one, SCHEDULED after the backoff inside the window, when the redial rule follows it. */
    async schedulePhoneRedial(tenantId: string, callId: string): Promise<ScheduledAttempt | null> {
      const next = await scheduleRedial(db, { tenantId, callId });
      if (next) logger.info({ tenantId, callId, next }, 'redial scheduled');
      return next;
    },

    /** Last step: processStatus CLOSED and outbox row CLOSED. */
    async closePhoneCallProcess(tenantId: string, callId: string, settledBy: string): Promise<void> {
      const row = await closeCallProcess(db, tenantId, callId);
      logger.info({ tenantId, callId, status: row?.status ?? null, settledBy }, 'call process closed');
    },
  };
}

export type PhoneActivities = ReturnType<typeof createPhoneActivities>;
