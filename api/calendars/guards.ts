import { capabilityGuard } from '../middleware/capability-guard';
import { basicOrGatewayIdentity } from '../middleware/basic-auth';
import { tenantIdentity } from '../middleware/identity';

/** HTTP Basic (API client) or gateway identity, then the tenant, then the capability layer. */
export const guarded = (code: 'CALENDAR' | 'SLA', mode: 'read' | 'write') => [
  basicOrGatewayIdentity,
  tenantIdentity,
  capabilityGuard(code, mode),
];
