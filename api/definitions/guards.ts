// Every definition route: gateway identity, the tenant, then the capability's guard (reads need
// `read`, writes `read-write`). Write bodies are bounded on the stream.
import { boundedBody } from '../body';
import { capabilityGuard } from '../middleware/capability-guard';
import { tenantIdentity, userIdentity } from '../middleware/identity';
import { raises } from '../openapi';
import { BODY_LIMIT_BYTES } from './schemas';

const writeBody = raises(boundedBody(BODY_LIMIT_BYTES, 'Request bodies'), 'payload-too-large');

export function definitionGuards(capabilityCode: string) {
  return {
    reader: [userIdentity, tenantIdentity, capabilityGuard(capabilityCode, 'read')],
    writer: [userIdentity, tenantIdentity, capabilityGuard(capabilityCode, 'write'), writeBody],
  };
}
