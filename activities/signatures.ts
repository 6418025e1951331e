import { Context } from '@temporalio/activity';
import { advanceCeremony, closeCeremony, expireCeremony, remindArmed, type CeremonyState } from '../services/signatures/ceremony-steps';
import type { SigningDocs } from '../services/signatures/campaign-deps';
import { sealInstance } from '../services/signatures/seal-instance';
import { startCampaign, type StartCampaign } from '../services/signatures/start-campaign';
import type { SealState } from '../domain/signatures/instance-states';
import type { ActivityDeps } from './deps';
import { toActivityFailure } from './failures';

export type StartSignatureCampaignInput = StartCampaign & { tenantId: string };

export function createSignatureActivities(deps: Pick<ActivityDeps, 'db' | 'settings' | 'logger' | 'documents' | 'mailer' | 'sealPdf'>) {
  const { db, settings, mailer } = deps;
  const { registry, store, scanner, uploadSlots } = deps.documents;
  const logger = deps.logger.child({ component: 'signature-activities' });
  const campaign = { db, settings, mailer, logger };
  const docs: SigningDocs = {
    registry,
    store,
    storeDeps: () => {
      if (!store) throw new Error('this worker has no S3 client');
      return { registry, store, scanner, uploadSlots, maxBytes: settings['docstore.max-bytes'], now: () => new Date(), log: logger };
    },
  };
  const failing = async <T>(step: () => Promise<T>): Promise<T> => {
    try {
      return await step();
    } catch (err) {
      throw toActivityFailure(err);
    }
  };

  return {
    /** Arms the due order group and mails the armed recipients not mailed yet; the campaign's status and timer settings. */
    advanceSignatureCeremony: (tenantId: string, instanceId: string): Promise<CeremonyState> => failing(() => advanceCeremony(campaign, tenantId, instanceId)),
    remindSignatureRecipients: (tenantId: string, instanceId: string): Promise<number> => failing(() => remindArmed(campaign, tenantId, instanceId)),
    expireSignatureCeremony: (tenantId: string, instanceId: string): Promise<CeremonyState> => failing(() => expireCeremony(campaign, tenantId, instanceId)),
    /** Never throws for a seal failure (FAILED is recorded); only the database being away is retried by Temporal. */
    sealSignatureInstance: (tenantId: string, instanceId: string): Promise<SealState | null> =>
      failing(() => sealInstance(campaign, docs, deps.sealPdf, tenantId, instanceId)),
    closeSignatureCeremony: (tenantId: string, instanceId: string): Promise<boolean> => failing(() => closeCeremony(campaign, tenantId, instanceId)),

    /**
     * Starts a campaign for the calling workflow, which hears its SignatureClosure. Idempotent per
     * activity: a retry finds the campaign its first attempt created.
     */
    async startSignatureCampaign(input: StartSignatureCampaignInput): Promise<{ instanceId: string }> {
      const { info } = Context.current();
      const { workflowId, runId } = info.workflowExecution!;
      const { tenantId, ...body } = input;
      return failing(() =>
        startCampaign(campaign, { tenantId, userId: `workflow:${workflowId}` }, body, { waitingWorkflowId: workflowId, startKey: `${workflowId}:${runId}:${info.activityId}` }),
      );
    },
  };
}

export type SignatureActivities = ReturnType<typeof createSignatureActivities>;
