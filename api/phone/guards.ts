// Every tenant phone route: gateway identity, the tenant, then the PHONE capability layers.
import { capabilityGuard } from '../middleware/capability-guard';
import { tenantIdentity, userIdentity } from '../middleware/identity';

export const reader = [userIdentity, tenantIdentity, capabilityGuard('PHONE', 'read')];
export const writer = [userIdentity, tenantIdentity, capabilityGuard('PHONE', 'write')];
