import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { AppError, forbidden } from '../../domain/errors';
import { loadCaller, recordUserDirectoryEntry } from '../../services/access/callers';
import type { AppEnv } from '../env';
import { accepts } from '../openapi-security';
import { TENANT_ID, USER_ID } from '../openapi';
import { USER_EMAIL, USER_NAME, type RequestUser } from './identity-fields';
import { assertionOf, readAssertedUser } from './jwt-identity';

/** Last directory values written per user, so a steady stream of requests causes no writes. */
const seenDirectory = new Map<string, string>();

/** A required header that must match `pattern`: 400 `missing-header` or `malformed-header`. */
export function readHeader(c: { req: { header(n: string): string | undefined } }, name: string, pattern: RegExp) {
  const value = optionalHeader(c, name, pattern);
  if (value === undefined) throw new AppError('missing-header', `Header ${name} is required`, { header: name });
  return value;
}

function optionalHeader(c: { req: { header(n: string): string | undefined } }, name: string, pattern: RegExp) {
  const value = c.req.header(name);
  if (value === undefined || value === '') return undefined;
  if (!pattern.test(value)) {
    throw new AppError('malformed-header', `Header ${name} is malformed`, { header: name });
  }
  return value;
}

/** `header` mode: X-User-Id (asserted by the gateway) is required; X-User-Name / X-User-Email refresh the directory. */
function readHeaderUser(c: Context<AppEnv>): RequestUser {
  return {
    userId: readHeader(c, 'X-User-Id', USER_ID),
    name: optionalHeader(c, 'X-User-Name', USER_NAME),
    email: optionalHeader(c, 'X-User-Email', USER_EMAIL),
  };
}

async function establishUser(c: Context<AppEnv>, { userId, name, email }: RequestUser) {
  if (name !== undefined || email !== undefined) {
    const stamp = `${name ?? ''}\u0000${email ?? ''}`;
    if (seenDirectory.get(userId) !== stamp) {
      await recordUserDirectoryEntry(c.get('deps').db, { userId, name, email });
      if (seenDirectory.size > 50_000) seenDirectory.clear();
      seenDirectory.set(userId, stamp);
    }
  }
  c.set('userId', userId);
}

/**
 * The calling user, as `auth.mode` says to believe it: the gateway's X-User-Id headers
 * (`header`), or the claims of the assertion it signs (`jwt`, docs/identity.md).
 */
export const userIdentity = accepts(createMiddleware<AppEnv>(async (c, next) => {
  const jwt = c.get('deps').settings['auth.mode'] === 'jwt';
  await establishUser(c, jwt ? await readAssertedUser(c) : readHeaderUser(c));
  await next();
}), ['UserId']);

/**
 * The user named in X-User-Id by a platform service that authenticated itself with the internal
 * key (a remote registry's calling tier), whatever `auth.mode` says: that tier verified its own caller.
 */
export const internalCallerUserIdentity = createMiddleware<AppEnv>(async (c, next) => {
  await establishUser(c, readHeaderUser(c));
  await next();
});

/** Whether the request carries a gateway identity of the configured mode (for routes that also take HTTP Basic). */
export function hasGatewayIdentity(c: Context<AppEnv>): boolean {
  if (c.req.header('X-User-Id')) return true;
  return c.get('deps').settings['auth.mode'] === 'jwt' && assertionOf(c) !== undefined;
}

/**
 * Tenant routes: X-Tenant-Id names the tenant. An unknown tenant is 404; a caller who is not a
 * member is 403 `not-a-member`, except platform operators, who administer every tenant.
 */
export const tenantIdentity = accepts(createMiddleware<AppEnv>(async (c, next) => {
  const tenantId = readHeader(c, 'X-Tenant-Id', TENANT_ID);
  const userId = c.get('userId');
  const { db, settings, accessCache } = c.get('deps');
  let facts = accessCache?.get(tenantId, userId);
  if (!facts) {
    facts = await loadCaller(db, { tenantId, userId, operatorGroups: settings['access.operator-groups'] });
    accessCache?.set(tenantId, userId, facts);
  }
  if (!facts.tenantExists) throw new AppError('tenant-not-found', 'Tenant was not found');
  if (!facts.isMember && !facts.isOperator) {
    throw forbidden('not-a-member', 'Caller is not a member of this tenant');
  }
  const { isMember, isOwner, isOperator } = facts;
  c.set('caller', { tenantId, userId, isMember, isOwner, isOperator, snapshot: facts });
  await next();
}), ['TenantId']);

/** Only members themselves (operators who are not members have no personal access here). */
export const memberOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.get('caller').isMember) throw forbidden('not-a-member', 'Caller is not a member of this tenant');
  await next();
});

/**
 * Routes addressed as /api/tenants/{t}/...: the path tenant must be the header tenant. Any
 * other tenant behaves as if it does not exist.
 */
export const pathTenant = createMiddleware<AppEnv>(async (c, next) => {
  const t = c.req.param('t');
  if (t !== c.get('caller').tenantId) throw new AppError('tenant-not-found', 'Tenant was not found');
  await next();
});

/** Owner-only routes: an owner of this tenant or a platform operator (a bare tenant-admin never). */
export const ownerOrOperator = createMiddleware<AppEnv>(async (c, next) => {
  const caller = c.get('caller');
  if (!caller.isOwner && !caller.isOperator) {
    throw forbidden('owner-required', 'Only an owner of this tenant or a platform operator may do this');
  }
  await next();
});

/** Middleware chains the access routes share. */
export const asMember = [userIdentity, tenantIdentity, memberOnly];
/** Owner-only routes addressed as /api/tenants/{t}/...: an owner of {t} or a platform operator. */
export const asOwnerOfPathTenant = [userIdentity, tenantIdentity, pathTenant, ownerOrOperator];
