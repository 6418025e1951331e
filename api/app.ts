import { OpenAPIHono } from '@hono/zod-openapi';
import { catalogRoutes } from './access/catalog-routes';
import { entitlementRoutes } from './access/entitlement-routes';
import { groupRoutes } from './access/group-routes';
import { invitationRoutes } from './access/invitation-routes';
import { requestRoutes } from './access/request-routes';
import { tenantRoutes } from './access/tenant-routes';
import { apiClientRoutes } from './access/api-client-routes';
import { calendarRoutes } from './calendars/routes';
import { appBodyBound } from './body';
import { fixNullableRefs } from './openapi-document';
import type { AppDeps } from './deps';
import { docsRoutes } from './docs';
import { documentRoutes, documentsTier } from './documents/routes';
import { formRoutes } from './forms/routes';
import { renderRoutes } from './forms/render-routes';
import type { AppEnv } from './env';
import { healthRoutes } from './health/routes';
import { invalidateAccessCacheAfterWrite } from './middleware/access-cache-invalidation';
import { MemoRouter } from './memo-router';
import { onError, onNotFound } from './middleware/errors';
import { phoneRoutes } from './phone/routes';
import { signatureRoutes } from './signatures/routes';
import { outboundWebhookRoutes } from './webhooks/routes';
import { publicNoStore } from './middleware/public-no-store';
import { requestContext } from './middleware/request-context';
import { registerSecuritySchemes } from './openapi-security';
import { webRoutes } from '../web/routes';

/** The only place routes are mounted. */
export function createApp(deps: AppDeps) {
  const app = new OpenAPIHono<AppEnv>({ router: new MemoRouter() });
  // Outside the request context, so it also marks the answers of what that layer runs itself.
  app.use('/api/public/*', publicNoStore);
  // Outermost but for that, so the request's id, span and figures cover everything below, log
  // lines included. It runs the app-wide write layers itself (the access-cache invalidation after
  // an access write, around the body bound): one layer of Hono's compose for all three.
  app.use('*', requestContext(deps, invalidateAccessCacheAfterWrite(appBodyBound())));
  app.onError(onError);
  app.notFound(onNotFound);

  app.route('/', healthRoutes());
  app.route('/', catalogRoutes());
  app.route('/', entitlementRoutes());
  app.route('/', requestRoutes());
  app.route('/', tenantRoutes());
  app.route('/', invitationRoutes());
  app.route('/', groupRoutes());
  app.route('/', phoneRoutes());
  const documents = documentsTier(deps);
  app.route('/', documentRoutes(deps, documents));
  app.route('/', apiClientRoutes());
  app.route('/', calendarRoutes());
  app.route('/', formRoutes(documents.runtime));
  app.route('/', renderRoutes(deps, documents.runtime));
  app.route('/', signatureRoutes(documents.runtime));
  app.route('/', outboundWebhookRoutes());
  app.route('/', docsRoutes());
  app.route('/', webRoutes());

  registerSecuritySchemes(app.openAPIRegistry, deps.settings);
  const document = () => fixNullableRefs(app.getOpenAPI31Document(DOCUMENT_CONFIG));
  let served: ReturnType<typeof document> | undefined;
  app.get('/openapi.json', (c) => c.json((served ??= document()) as object));
  return app;
}

const DOCUMENT_CONFIG = {
  openapi: '3.1.0',
  info: {
    title: 'Tenant capability platform',
    version: '0.1.0',
    description: [
      'Tenant routes need `X-Tenant-Id` and `X-User-Id` (asserted by the gateway).',
      'Errors are `application/problem+json` with a stable `code` (see the README error table).',
      'Capability denials are 403 with code `capability-not-subscribed`, `capability-not-granted` or `capability-write-required`.',
      'A record of another tenant answers 404 as if it did not exist.',
    ].join('\n\n'),
  },
};
