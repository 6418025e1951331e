// Administrative operations on form instances (docs/forms.md "Instance operations"): retry-process,
// set state, mark-processed. FORMS guard, `read-write`; another tenant's instance is 404.
import { createRoute, z } from '@hono/zod-openapi';
import { FORM_INSTANCE_STATES } from '../../domain/forms/instance-states';
import { markProcessed, retryProcess, setInstanceState } from '../../services/forms/instance-admin';
import { actorOf } from '../definitions/context';
import { definitionGuards } from '../definitions/guards';
import { createRouter, jsonBody, jsonContent, problemResponses, uuidParam } from '../openapi';
import { view } from './instance-routes';
import { InstanceView } from './instance-schemas';

const InstancePath = z.object({ id: uuidParam() });
const BASE = '/api/form-instances/{id}';

export function instanceAdminRoutes() {
  const app = createRouter();
  const { writer } = definitionGuards('FORMS');
  const tags = ['Forms: instances'];

  app.openapi(
    createRoute({
      method: 'post',
      path: `${BASE}/retry-process`,
      tags,
      summary: 'Queue the intake process again after it failed',
      description:
        'For a SUBMITTED instance whose intake recorded a failure (processStartStatus FAILED) or whose outbox row is FAILED or UNDELIVERABLE; 409 `process-not-retryable` otherwise (also while a retry is queued).',
      middleware: writer,
      request: { params: InstancePath },
      responses: { 200: jsonContent(InstanceView), ...problemResponses(400, 404, 409) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      return c.json(await view(c, await retryProcess(deps, actor, c.req.valid('param').id)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: `${BASE}/state`,
      tags,
      summary: 'Move an instance by hand (DRAFT → CANCELLED; SENT, OPENED → CANCELLED, EXPIRED; CANCELLED, EXPIRED → DRAFT)',
      description: 'The same state again: nothing to do. Every other move is 409 `instance-state-conflict`.',
      middleware: writer,
      request: { params: InstancePath, body: jsonBody(z.object({ state: z.enum(FORM_INSTANCE_STATES) }).openapi('SetFormInstanceState')) },
      responses: { 200: jsonContent(InstanceView), ...problemResponses(400, 404, 409) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      return c.json(await view(c, await setInstanceState(deps, actor, c.req.valid('param').id, c.req.valid('json').state)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: `${BASE}/mark-processed`,
      tags,
      summary: 'SUBMITTED → PROCESSED by hand (recorded in the context: processedBy, processedAt)',
      description: '409 `instance-state-conflict` unless SUBMITTED.',
      middleware: writer,
      request: { params: InstancePath },
      responses: { 200: jsonContent(InstanceView), ...problemResponses(400, 404, 409) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      return c.json(await view(c, await markProcessed(deps, actor, c.req.valid('param').id)), 200);
    },
  );
  return app;
}
