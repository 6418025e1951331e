// Every definition route: gateway identity, the tenant, then the capability's guard (reads need
// `read`, writes `read-write`). Write bodies are bounded on the stream.
import { bodyLimit } from 'hono/body-limit';
import { AppError } from '../../domain/errors';
import { capabilityGuard } from '../middleware/capability-guard';
import { tenantIdentity, userIdentity } from '../middleware/identity';
import { raises } from '../openapi';
import { BODY_LIMIT_BYTES } from './schemas';

const boundedBody = raises(
  bodyLimit({
    maxSize: BODY_LIMIT_BYTES,
    onError: () => {
      throw new AppError('payload-too-large', `Request bodies are limited to ${BODY_LIMIT_BYTES} bytes`);
    },
  }),
  'payload-too-large',
);

export function definitionGuards(capabilityCode: string) {
  return {
    reader: [userIdentity, tenantIdentity, capabilityGuard(capabilityCode, 'read')],
    writer: [userIdentity, tenantIdentity, capabilityGuard(capabilityCode, 'write'), boundedBody],
  };
}
