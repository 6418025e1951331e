// Who is looking, established the way the JSON API establishes it: the identity middleware the
// API uses (header or jwt mode), then the caller facts of the path's tenant through the same
// service and cache as `tenantIdentity`. A tenant that does not exist, or that the viewer does not
// belong to (operators excepted), is a 404: its existence is not revealed.
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { TENANT_ID } from '../../api/openapi';
import { AppError } from '../../domain/errors';
import { loadCaller } from '../../services/access/callers';
import { listViewerTenants } from '../../services/access/user-tenants';
import { consoleScriptPaths } from './assets';
import { CSRF_FIELD, crossSiteRefusal, csrfTokenMatches, issueCsrfToken } from './csrf';
import type { ConsoleEnv } from './env';
import type { ConsoleViewer } from './viewer';

/** How many tenants the switcher lists (an operator's "every tenant" on a large platform). */
const SWITCHER_LIMIT = 200;

/** The page furniture every console response needs, before anything can fail. */
export const consoleFrame = createMiddleware<ConsoleEnv>(async (c, next) => {
  c.set('consoleScripts', await consoleScriptPaths());
  await next();
});

/** The caller facts of a tenant, cached per node as the API caches them. */
async function callerFacts(c: Context<ConsoleEnv>, tenantId: string, userId: string) {
  const { db, settings, accessCache } = c.get('deps');
  let facts = accessCache?.get(tenantId, userId);
  if (!facts) {
    facts = await loadCaller(db, { tenantId, userId, operatorGroups: settings['access.operator-groups'] });
    accessCache?.set(tenantId, userId, facts);
  }
  return facts;
}

/**
 * Every console request after the identity: this browser's form token, and for a POST the CSRF
 * defence (csrf.ts), before any page code runs.
 */
export const consoleCsrf = createMiddleware<ConsoleEnv>(async (c, next) => {
  const userId = c.get('userId');
  c.set('csrfToken', issueCsrfToken(c, userId));
  if (c.req.method === 'POST') await refuseForgedPost(c, userId);
  await next();
});

/** The tenant of /console/{tenantId}/*: the viewer and the API's `caller`. */
export const consoleTenant = createMiddleware<ConsoleEnv>(async (c, next) => {
  const tenantId = c.req.param('tenantId') ?? '';
  const userId = c.get('userId');
  if (!TENANT_ID.test(tenantId)) throw new AppError('tenant-not-found', 'Tenant was not found');
  const facts = await callerFacts(c, tenantId, userId);
  if (!facts.tenantExists || (!facts.isMember && !facts.isOperator)) throw new AppError('tenant-not-found', 'Tenant was not found');
  const { isMember, isOwner, isOperator } = facts;
  c.set('caller', { tenantId, userId, isMember, isOwner, isOperator, snapshot: facts });
  const { tenants, displayName } = await listViewerTenants(c.get('deps').db, { userId, isOperator, limit: SWITCHER_LIMIT });
  const viewer: ConsoleViewer = {
    userId,
    displayName,
    isOperator,
    tenantId,
    tenants: tenants.map((t) => ({ id: t.id, name: t.name, role: t.isOwner ? 'OWNER' : t.isMember ? 'MEMBER' : 'OPERATOR' })),
    role: isOwner ? 'OWNER' : isMember ? 'MEMBER' : null,
    isOwner: isOwner || isOperator,
    // Rule 1: a grant counts only while its subscription is ACTIVE (as GET /api/my-capabilities).
    capabilities: Object.entries(facts.grants)
      .filter(([code]) => facts.subscriptions[code] === 'ACTIVE')
      .map(([code, level]) => ({ code, level: level === 'read-write' ? 'WRITE' : 'READ' })),
  };
  c.set('viewer', viewer);
  await next();
  // A change is everywhere before it is answered, as the API's (docs/access.md "Caching across nodes").
  if (c.req.method === 'POST') await c.get('deps').accessCache?.invalidateEverywhere(tenantId);
});

/** Thrown for a POST that fails the CSRF defence; rendered as a 403 page. */
export class CrossSiteRefusal extends Error {}

async function refuseForgedPost(c: Context<ConsoleEnv>, userId: string) {
  const why = crossSiteRefusal(c);
  if (why) throw new CrossSiteRefusal(why);
  const body = await c.req.parseBody();
  if (!csrfTokenMatches(c, userId, body[CSRF_FIELD])) throw new CrossSiteRefusal('form token missing or stale');
}
