import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { AppError, forbidden } from '../../domain/errors';
import type { CallerSnapshot } from '../../db/queries/caller-snapshot';
import { loadCaller, recordUserDirectoryEntry } from '../../services/access/callers';
import type { AppEnv } from '../env';
import { accepts } from '../openapi-security';
import { TENANT_ID, USER_ID } from '../openapi';
import { USER_EMAIL, USER_NAME, type RequestUser } from './identity-fields';
import { assertionOf, readAssertedUser } from './jwt-identity';
import { requestHeader } from './request-header';

/** Last directory values written per user, so a steady stream of requests causes no writes. */
const seenDirectory = new Map<string, string>();

/**
 * A required header that must match `pattern`: 400 `missing-header` or `malformed-header`. Read
 * from Node's headers (request-header.ts): a cached guarded read needs nothing else of them.
 */
export function readHeader(c: Context, name: string, pattern: RegExp, lowerName = name.toLowerCase()) {
  const value = optionalHeader(c, name, pattern, lowerName);
  if (value === undefined) throw new AppError('missing-header', `Header ${name} is required`, { header: name });
  return value;
}

function optionalHeader(c: Context, name: string, pattern: RegExp, lowerName: string) {
  const value = requestHeader(c, lowerName);
  if (value === undefined || value === '') return undefined;
  if (!pattern.test(value)) {
    throw new AppError('malformed-header', `Header ${name} is malformed`, { header: name });
  }
  return value;
}

/** `header` mode: X-User-Id (asserted by the gateway) is required; X-User-Name / X-User-Email refresh the directory. */
function readHeaderUser(c: Context<AppEnv>): RequestUser {
  return {
    userId: readHeader(c, 'X-User-Id', USER_ID, 'x-user-id'),
    name: optionalHeader(c, 'X-User-Name', USER_NAME, 'x-user-name'),
    email: optionalHeader(c, 'X-User-Email', USER_EMAIL, 'x-user-email'),
  };
}

// The steps below answer undefined when they are done and a promise only when they wait (a
// directory write, a verified assertion, a snapshot read): a cached guarded read then runs its
// identity without a promise of its own, a measurable part of it (bench/access.bench.ts).
type Step = Promise<void> | undefined;
const afterStep = (step: Step, next: () => Promise<void>) => (step ? step.then(next) : next());

function establishUser(c: Context<AppEnv>, { userId, name, email }: RequestUser): Step {
  if (name !== undefined || email !== undefined) {
    const stamp = `${name ?? ''}\u0000${email ?? ''}`;
    if (seenDirectory.get(userId) !== stamp) {
      return recordUserDirectoryEntry(c.get('deps').db, { userId, name, email }).then(() => {
        if (seenDirectory.size > 50_000) seenDirectory.clear();
        seenDirectory.set(userId, stamp);
        c.set('userId', userId);
      });
    }
  }
  c.set('userId', userId);
  return undefined;
}

/** The calling user, as `auth.mode` says to believe it (the step of `userIdentity`). */
function establishRequestUser(c: Context<AppEnv>): Step {
  if (c.get('deps').settings['auth.mode'] !== 'jwt') return establishUser(c, readHeaderUser(c));
  return readAssertedUser(c).then((user) => establishUser(c, user));
}

/**
 * The calling user, as `auth.mode` says to believe it: the gateway's X-User-Id headers
 * (`header`), or the claims of the assertion it signs (`jwt`, docs/identity.md).
 */
export const userIdentity = accepts(
  createMiddleware<AppEnv>((c, next) => afterStep(establishRequestUser(c), next)),
  ['UserId'],
);

/**
 * The user named in X-User-Id by a platform service that authenticated itself with the internal
 * key (a remote registry's calling tier), whatever `auth.mode` says: that tier verified its own caller.
 */
export const internalCallerUserIdentity = createMiddleware<AppEnv>((c, next) => afterStep(establishUser(c, readHeaderUser(c)), next));

/** Whether the request carries a gateway identity of the configured mode (for routes that also take HTTP Basic). */
export function hasGatewayIdentity(c: Context<AppEnv>): boolean {
  if (requestHeader(c, 'x-user-id')) return true;
  return c.get('deps').settings['auth.mode'] === 'jwt' && assertionOf(c) !== undefined;
}

/** The tenant step: the caller's snapshot from the node's cache, or from PostgreSQL on a miss. */
function establishCaller(c: Context<AppEnv>): Step {
  const tenantId = readHeader(c, 'X-Tenant-Id', TENANT_ID, 'x-tenant-id');
  const userId = c.get('userId');
  const { db, settings, accessCache } = c.get('deps');
  const cached = accessCache?.get(tenantId, userId);
  if (cached) return admitCaller(c, tenantId, userId, cached);
  return loadCaller(db, { tenantId, userId, operatorGroups: settings['access.operator-groups'] }).then((facts) => {
    accessCache?.set(tenantId, userId, facts);
    admitCaller(c, tenantId, userId, facts);
  });
}

function admitCaller(c: Context<AppEnv>, tenantId: string, userId: string, facts: CallerSnapshot): undefined {
  if (!facts.tenantExists) throw new AppError('tenant-not-found', 'Tenant was not found');
  if (!facts.isMember && !facts.isOperator) {
    throw forbidden('not-a-member', 'Caller is not a member of this tenant');
  }
  const { isMember, isOwner, isOperator } = facts;
  c.set('caller', { tenantId, userId, isMember, isOwner, isOperator, snapshot: facts });
  return undefined;
}

/**
 * Tenant routes: X-Tenant-Id names the tenant. An unknown tenant is 404; a caller who is not a
 * member is 403 `not-a-member`, except platform operators, who administer every tenant.
 */
export const tenantIdentity = accepts(
  createMiddleware<AppEnv>((c, next) => afterStep(establishCaller(c), next)),
  ['TenantId'],
);

/** Only members themselves (operators who are not members have no personal access here), then the rest. */
function memberThenNext(c: Context<AppEnv>, next: () => Promise<void>) {
  if (!c.get('caller').isMember) throw forbidden('not-a-member', 'Caller is not a member of this tenant');
  return next();
}

/**
 * `userIdentity`, `tenantIdentity` and the membership check in one layer, in that order: what a
 * route of the caller's own (`asMember`) needs, without two more layers of Hono's compose a request.
 */
export const memberIdentity = accepts(
  createMiddleware<AppEnv>((c, next) => {
    const user = establishRequestUser(c);
    const caller = user ? user.then(() => establishCaller(c)) : establishCaller(c);
    return caller ? caller.then(() => memberThenNext(c, next)) : memberThenNext(c, next);
  }),
  ['UserId', 'TenantId'],
);

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
export const asMember = [memberIdentity];
/** Owner-only routes addressed as /api/tenants/{t}/...: an owner of {t} or a platform operator. */
export const asOwnerOfPathTenant = [userIdentity, tenantIdentity, pathTenant, ownerOrOperator];
