import { Context } from '@temporalio/activity';
import type { DefinitionRef } from '../services/forms/outbound-config';
import { expireDueInstances } from '../services/forms/outbound-expiry';
import { sendOutboundForm, type SendOutbound, type SentForm } from '../services/forms/outbound-send';
import type { ActivityDeps } from './deps';

export type SendOutboundFormInput = DefinitionRef & {
  tenantId: string;
  recipient: SendOutbound['recipient'];
  prefill?: Record<string, unknown>;
  /** ISO-8601; default now + forms.outbound.default-expiry-days. */
  expiresAt?: string;
  context?: Record<string, unknown>;
};

/**
 * What the activity answers the workflow: the send without its link. An activity's result is kept
 * in the workflow's history (readable in the Temporal UI and by anyone with history access), and
 * the link's token is the recipient's credential.
 */
export type WorkflowSentForm = Omit<SentForm, 'token' | 'link'>;

export function createOutboundFormActivities(deps: Pick<ActivityDeps, 'db' | 'settings' | 'logger' | 'mailer'>) {
  const logger = deps.logger.child({ component: 'outbound-form-activities' });
  return {
    /**
     * Sends an outbound form for the calling workflow, which the instance names as its
     * `waitingWorkflowId` (the event rail signals it each lifecycle change). Idempotent per
     * activity: a retry finds the instance its first attempt created, so one form is sent.
     */
    async sendOutboundForm(input: SendOutboundFormInput): Promise<WorkflowSentForm> {
      const { info } = Context.current();
      const { workflowId, runId } = info.workflowExecution!;
      const { tenantId, recipient, prefill, expiresAt, context, ...ref } = input;
      const { token: _token, link: _link, ...sent } = await sendOutboundForm(
        { db: deps.db, settings: deps.settings, mailer: deps.mailer, logger },
        { tenantId, userId: `workflow:${workflowId}` },
        ref as DefinitionRef,
        { recipient, prefill, context, expiresAt: expiresAt ? new Date(expiresAt) : undefined },
        { waitingWorkflowId: workflowId, sendKey: `${workflowId}:${runId}:${info.activityId}` },
      );
      return sent;
    },

    async expireFormInstancesBatch(batchSize: number): Promise<{ expired: number; byTenant: Record<string, number> }> {
      const result = await expireDueInstances(deps.db, batchSize);
      if (result.expired > 0) logger.info(result, 'form instances expired');
      return result;
    },
  };
}

export type OutboundFormActivities = ReturnType<typeof createOutboundFormActivities>;
