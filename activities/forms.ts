import { Context } from '@temporalio/activity';
import { closeOutbox } from '../db/outbox';
import { FORMS_CAPABILITY } from '../domain/forms/intake-process';
import { planIntake, recordIntakeFailure, writeBackProcessed, type IntakePlan } from '../services/forms/intake-steps';
import type { ActivityDeps } from './deps';

export function createFormActivities(deps: ActivityDeps) {
  const { db } = deps;
  const logger = deps.logger.child({ component: 'form-activities' });
  return {
    /** Reads what to do with the submission and marks processStartStatus STARTED. */
    async planFormIntake(tenantId: string, instanceId: string): Promise<IntakePlan | null> {
      const info = Context.current().info;
      return planIntake(db, tenantId, instanceId, info.workflowExecution?.runId ?? info.activityId);
    },

    /** Spec: the write-back's failures are logged, never rethrown. */
    async writeBackFormInstance(tenantId: string, instanceId: string, processInstanceId: string): Promise<boolean> {
      try {
        return (await writeBackProcessed(db, tenantId, instanceId, processInstanceId)) !== null;
      } catch (err) {
        logger.error({ tenantId, instanceId, err: err instanceof Error ? err.message : String(err) }, 'form intake write-back failed');
        return false;
      }
    },

    async recordFormIntakeFailure(tenantId: string, instanceId: string, reason: string): Promise<void> {
      logger.warn({ tenantId, instanceId, reason }, 'form submission could not be handled');
      await recordIntakeFailure(db, tenantId, instanceId, reason);
    },

    async closeFormIntake(tenantId: string, instanceId: string): Promise<void> {
      await closeOutbox(db, FORMS_CAPABILITY, tenantId, instanceId);
    },
  };
}

export type FormActivities = ReturnType<typeof createFormActivities>;
