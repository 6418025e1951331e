// The worker's workflowsPath: every workflow type the platform runs is exported from here.
// Workflows import activity types only (see DESIGN.md).
export {};
export * from './phone-call';
export { phoneAction } from './phone-action';
export { documentScan } from './document-scan';
export { retentionPurge } from './retention-purge';
export { documentAttachedSignal } from './document-signals';
export { slaDueDate } from './sla-due-date';
export { slaClock, slaClockChangedSignal, slaClockStateQuery } from './sla-clock';
export { grantExpiry, grantExpirySupersededSignal } from './grant-expiry';
export { accessRequestExpirySweep } from './access-request-expiry';
export { formIntake } from './form-intake';
export { formExpirySweep } from './form-expiry-sweep';
export { signatureCeremony, recipientSignedSignal, cancelSignatureSignal, resealNowSignal } from './signature-ceremony';
export { webhookDelivery } from './webhook-delivery';
