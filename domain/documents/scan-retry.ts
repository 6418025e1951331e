// A scan that failed at finalize is retried durably: the registry enqueues an outbox row
// (capability DOCUMENTS) under this business key and the documentScan workflow closes it.
export const scanBusinessKey = (docId: string) => `scan-${docId}`;
