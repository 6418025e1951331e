// Where a campaign's outbox signals go: its ceremony, by the instance id as business key.
import { SIGNATURES_CAPABILITY } from './ceremony-process';

export const ceremonyTarget = (row: { tenantId: string; id: string }) => ({ capability: SIGNATURES_CAPABILITY, tenantId: row.tenantId, businessKey: row.id });
