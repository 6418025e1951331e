import { createMiddleware } from 'hono/factory';
import { parseBasicAuthorization } from '../../domain/api-client-credentials';
import { AppError, badRequest } from '../../domain/errors';
import type { CodeWithStatus } from '../../domain/error-codes';
import { authenticateApiClient } from '../../services/access/api-client-auth';
import type { AppEnv } from '../env';
import { accepts } from '../openapi-security';
import { hasGatewayIdentity, userIdentity } from './identity';

export const BASIC_CHALLENGE = 'Basic realm="tenant-capability-platform", charset="UTF-8"';

const unauthorized = (code: CodeWithStatus<401>, detail: string) => new AppError(code, detail, { wwwAuthenticate: BASIC_CHALLENGE });

/**
 * Identity for routes an API client may call: HTTP Basic credentials of a tenant API client
 * (its client id becomes the caller's user id, so its membership and grants apply as for a
 * user), or the gateway's X-User-Id. Neither: 401 with a Basic challenge. Both: 400, so an
 * identity is never picked silently. Another scheme in Authorization (a gateway's bearer
 * token) is ignored. A client of another tenant than X-Tenant-Id is refused like a wrong secret.
 */
export const basicOrGatewayIdentity = accepts(createMiddleware<AppEnv>(async (c, next) => {
  const creds = parseBasicAuthorization(c.req.header('Authorization'));
  // X-User-Id, or in auth.mode=jwt also the gateway's assertion (docs/identity.md).
  const gatewayUser = hasGatewayIdentity(c);
  if (creds === undefined) {
    if (!gatewayUser) {
      throw unauthorized('authentication-required', 'Send HTTP Basic credentials of an API client, or the gateway identity headers');
    }
    return userIdentity(c, next);
  }
  if (gatewayUser) {
    throw badRequest('conflicting-credentials', 'Send either HTTP Basic credentials or X-User-Id, not both');
  }
  if (creds === null) throw unauthorized('invalid-credentials', 'The Basic credentials are malformed');
  const tenantId = c.req.header('X-Tenant-Id') || undefined;
  if (!(await authenticateApiClient(c.get('deps'), { ...creds, tenantId }))) {
    throw unauthorized('invalid-credentials', 'Unknown or revoked API client, or wrong secret');
  }
  c.set('userId', creds.clientId);
  await next();
}), ['UserId'], ['ApiClient']);
