// Form event subscriptions (docs/forms.md "Event rail"): the workflows the correlator starts for each
// event of a form code and event type. FORMS guard: reads `read`, writes `read-write`.
import { createRoute, z } from '@hono/zod-openapi';
import { FORM_EVENT_TYPES } from '../../domain/forms/event-rail';
import { definitionCodePattern } from '../../domain/definitions/definition-code';
import type { FormEventSubscriptionRow } from '../../db/queries/form-events';
import { createSubscription, deleteSubscription, listSubscriptions } from '../../services/forms/subscriptions';
import { actorOf } from '../definitions/context';
import { definitionGuards } from '../definitions/guards';
import { createRouter, jsonBody, jsonContent, noContent, problemResponses, uuidParam } from '../openapi';

const BASE = '/api/form-event-subscriptions';
const formCode = z.string().regex(definitionCodePattern('FM-'), 'must be an FM- form code');
const eventType = z.enum(FORM_EVENT_TYPES as [string, ...string[]]).openapi({ description: 'The lower-cased instance state the event announces' });

const SubscriptionBody = z
  .object({
    formCode,
    eventType,
    workflowType: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]{0,99}$/, 'must be a workflow type name (letters, digits, underscore; at most 100)')
      .openapi({ description: 'Registered on the platform task queue; started with `FormEventSubscriberInput`' }),
  })
  .openapi('NewFormEventSubscription');

const SubscriptionView = z
  .object({ id: z.string(), formCode: z.string(), eventType: z.string(), workflowType: z.string(), createdBy: z.string(), createdAt: z.string() })
  .openapi('FormEventSubscription');

const toView = (r: FormEventSubscriptionRow) => ({
  id: r.id,
  formCode: r.formCode,
  eventType: r.eventType,
  workflowType: r.workflowType,
  createdBy: r.createdBy,
  createdAt: r.createdAt.toISOString(),
});

export function subscriptionRoutes() {
  const app = createRouter();
  const { reader, writer } = definitionGuards('FORMS');
  const tags = ['Forms: event subscriptions'];

  app.openapi(
    createRoute({
      method: 'post',
      path: BASE,
      tags,
      summary: 'Start a workflow for every event of a form code and event type',
      description: "404 `definition-not-found` (no definition of the tenant has this code); 409 `form-event-subscription-exists`.",
      middleware: writer,
      request: { body: jsonBody(SubscriptionBody) },
      responses: { 201: jsonContent(SubscriptionView, 'Created'), ...problemResponses(400, 404, 409) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      return c.json(toView(await createSubscription(deps, actor, c.req.valid('json'))), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: BASE,
      tags,
      summary: "The tenant's subscriptions, by form code and event type",
      middleware: reader,
      request: { query: z.object({ formCode: formCode.optional(), eventType: eventType.optional() }) },
      responses: { 200: jsonContent(z.object({ items: z.array(SubscriptionView) }).openapi('FormEventSubscriptionList')), ...problemResponses(400) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      return c.json({ items: (await listSubscriptions(deps, actor, c.req.valid('query'))).map(toView) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: `${BASE}/{id}`,
      tags,
      summary: 'Stop starting the workflow (events already delivered keep their starts)',
      description: "404 `form-event-subscription-not-found` (unknown or another tenant's).",
      middleware: writer,
      request: { params: z.object({ id: uuidParam() }) },
      responses: { 204: noContent, ...problemResponses(400, 404) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      await deleteSubscription(deps, actor, c.req.valid('param').id);
      return c.body(null, 204);
    },
  );
  return app;
}
