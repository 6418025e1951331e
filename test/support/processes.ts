// Process contracts of test-only workflows (test/support/workflows), enqueued like the platform's own.
import { defineProcess, signalContract } from '../../domain/process-contract';

/** A FORMS-like owner of a processRef (business key = processRef) that hears documentAttachedSignal. */
export const AttachmentListenerProcess = defineProcess<{ tenantId: string; processRef: string; waitMs: number }>()({
  capability: 'FORMS',
  workflowType: 'attachmentListener',
  tenantOf: (i) => i.tenantId,
  businessKey: (i) => i.processRef,
  signals: {},
});

/** The dispatcher tests' probe: any workflow type, started or signalled by key. */
export const ProbeProcess = defineProcess<{ tenantId: string; key: string; expect?: number }>()({
  capability: 'PROBE',
  workflowType: 'outboxProbe',
  tenantOf: (i) => i.tenantId,
  businessKey: (i) => i.key,
  signals: { note: signalContract<{ n: number; deliveryKey: string }>('probeNote') },
});
