// Whom a call to the registry's internal routes acts for. The calling tier (authenticated by
// X-Internal-Key) names either a user, with X-User-Id as on the proxy routes, or a service
// principal (a workflow, an embed token holder, a signer) in X-Document-Principal: base64url
// JSON of the principal without its tenant, which X-Tenant-Id names as always. The principal is
// honoured only here, behind the internal key: the proxy routes never read the header.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { DOCUMENT_CAPABILITIES } from '../../domain/documents/document-fields';
import { AppError } from '../../domain/errors';
import type { RegistryCaller, ServicePrincipal } from '../../services/documents/registry-caller';
import type { AppEnv } from '../env';
import { internalCallerUserIdentity, readHeader, tenantIdentity } from '../middleware/identity';
import { TENANT_ID } from '../openapi';
import { accepts } from '../openapi-security';
import { registryCaller } from './request-parts';
import { OPAQUE_ID } from './schemas';
import { text } from '../vocabulary';

export const PRINCIPAL_HEADER = 'X-Document-Principal';

const opaque = z.string().regex(OPAQUE_ID);
const processRef = text({ max: 200, trim: false });
const PrincipalFields = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('workflow'), capability: z.enum(DOCUMENT_CAPABILITIES), workflowId: opaque }),
  z.strictObject({ kind: z.literal('embed'), capability: z.literal('FORMS'), processRef }),
  z.strictObject({ kind: z.literal('signer'), capability: z.literal('SIGNATURES'), processRef, signerId: opaque }),
]);

type PrincipalFields = z.infer<typeof PrincipalFields>;

/** The header value for a principal (what HttpRegistryClient sends). */
export function encodePrincipal(principal: ServicePrincipal): string {
  const { tenantId: _tenant, requestId: _request, ...fields } = principal;
  return Buffer.from(JSON.stringify(fields), 'utf8').toString('base64url');
}

const malformed = (header: string) => new AppError('malformed-header', `Header ${header} is malformed`, { header });

function decodePrincipal(value: string): PrincipalFields {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    throw malformed(PRINCIPAL_HEADER);
  }
  const parsed = PrincipalFields.safeParse(json);
  if (!parsed.success) throw malformed(PRINCIPAL_HEADER);
  return parsed.data;
}

const principalHeader = (c: Context<AppEnv>) => {
  const value = c.req.header(PRINCIPAL_HEADER);
  return value === undefined || value === '' ? undefined : value;
};

/** The caller of an internal registry route: the principal when one is named, else the identity middleware's user. */
export function internalRegistryCaller(c: Context<AppEnv>): RegistryCaller {
  const header = principalHeader(c);
  if (header === undefined) return registryCaller(c);
  if (c.req.header('X-User-Id')) throw new AppError('malformed-header', `Name a user or a principal, not both`, { header: PRINCIPAL_HEADER });
  const tenantId = readHeader(c, 'X-Tenant-Id', TENANT_ID);
  return { ...decodePrincipal(header), tenantId, requestId: c.get('requestId') };
}

/**
 * A user goes through the identity middleware (member of the tenant, snapshot loaded); a
 * principal's headers are checked here, before the body is read, and its rule is the registry's.
 */
export const registryIdentity = accepts(
  createMiddleware<AppEnv>(async (c, next) => {
    if (principalHeader(c) === undefined) {
      await internalCallerUserIdentity(c, async () => {
        await tenantIdentity(c, next);
      });
      return;
    }
    internalRegistryCaller(c);
    await next();
  }),
  ['UserId', 'TenantId'],
  ['DocumentPrincipal', 'TenantId'],
);
