import { Context } from '@temporalio/activity';
import { AppError } from '../domain/errors';
import { FORMS_CAPABILITY } from '../domain/forms/intake-process';
import { makeSubmissionPdf, mirrorAttachments } from '../services/forms/intake-documents';
import { planIntake, recordIntakeFailure, recordPdfFailure, writeBackProcessed, type IntakePlan } from '../services/forms/intake-steps';
import { databaseUnavailableError } from '../services/platform/database-unavailable';
import { closeProcessRow } from '../services/platform/process-rows';
import type { ActivityDeps } from './deps';
import { toActivityFailure } from './failures';

export function createFormActivities(deps: Pick<ActivityDeps, 'db' | 'settings' | 'logger' | 'documents' | 'render'>) {
  const { db, settings, render } = deps;
  const { registry, store: objectStore, scanner, uploadSlots } = deps.documents;
  const logger = deps.logger.child({ component: 'form-activities' });
  const workflowOf = () => {
    const info = Context.current().info;
    return info.workflowExecution ?? { workflowId: info.activityId, runId: info.activityId };
  };

  return {
    /** Reads what to do with the submission and marks processStartStatus STARTED. */
    async planFormIntake(tenantId: string, instanceId: string): Promise<IntakePlan | null> {
      return planIntake(db, tenantId, instanceId, workflowOf().runId);
    },

    /**
     * Spec rule 5: the submission's attachments get the intake's run id (the registry's
     * process-started). A refusal that retrying cannot change (an earlier run of a retried intake
     * is already recorded for the processRef, an unusable processRef) is logged and skipped.
     */
    async mirrorFormAttachments(tenantId: string, instanceId: string, processRef: string): Promise<number> {
      const { workflowId, runId } = workflowOf();
      try {
        return await mirrorAttachments(registry, { tenantId, processRef, workflowId, runId });
      } catch (err) {
        if (err instanceof AppError && err.status < 500) {
          logger.warn({ tenantId, instanceId, code: err.code }, 'form attachments not mirrored');
          return 0;
        }
        throw toActivityFailure(err);
      }
    },

    /**
     * Step 7: the submission PDF (null when `forms.submission-pdf` is off). A full queue, a
     * Chromium failure or storage trouble (5xx) is retried by Temporal; a 4xx never succeeds.
     */
    async renderFormSubmissionPdf(tenantId: string, instanceId: string): Promise<{ docId: string } | null> {
      if (!settings['forms.submission-pdf']) return null;
      try {
        if (!objectStore) throw new AppError('storage-unavailable', 'This worker has no S3 client; another worker must render the PDF');
        return await makeSubmissionPdf(
          {
            db,
            render,
            store: (log) => ({ registry, store: objectStore, scanner, uploadSlots, maxBytes: settings['docstore.max-bytes'], now: () => new Date(), log }),
            log: logger,
          },
          { tenantId, instanceId, workflowId: workflowOf().workflowId },
        );
      } catch (err) {
        throw toActivityFailure(err);
      }
    },

    async recordFormPdfFailure(tenantId: string, instanceId: string, reason: string): Promise<void> {
      logger.error({ tenantId, instanceId, reason }, 'form submission PDF could not be made');
      await recordPdfFailure(db, tenantId, instanceId, reason);
    },

    /**
     * Spec: the write-back's failures are logged, never rethrown. PostgreSQL out of reach is not a
     * failed write-back but one not made yet: it is retried (a retryable `database-unavailable`),
     * or a restart of the database would leave the instance SUBMITTED for good.
     */
    async writeBackFormInstance(tenantId: string, instanceId: string, processInstanceId: string): Promise<boolean> {
      try {
        return (await writeBackProcessed(db, tenantId, instanceId, processInstanceId)) !== null;
      } catch (err) {
        const unreachable = databaseUnavailableError(err);
        if (unreachable) throw toActivityFailure(unreachable);
        logger.error({ tenantId, instanceId, err: err instanceof Error ? err.message : String(err) }, 'form intake write-back failed');
        return false;
      }
    },

    async recordFormIntakeFailure(tenantId: string, instanceId: string, reason: string): Promise<void> {
      logger.warn({ tenantId, instanceId, reason }, 'form submission could not be handled');
      await recordIntakeFailure(db, tenantId, instanceId, reason);
    },

    async closeFormIntake(tenantId: string, instanceId: string): Promise<void> {
      await closeProcessRow(db, { capability: FORMS_CAPABILITY, tenantId, businessKey: instanceId });
    },
  };
}

export type FormActivities = ReturnType<typeof createFormActivities>;
