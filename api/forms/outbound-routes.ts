// Outbound delivery for the tenant (spec: PUT .../outbound-config, POST .../send). FORMS guard,
// writes need `read-write`.
import { createRoute } from '@hono/zod-openapi';
import { setOutboundRoles } from '../../services/forms/outbound-config';
import { sendOutboundForm } from '../../services/forms/outbound-send';
import { actorOf } from '../definitions/context';
import { definitionGuards } from '../definitions/guards';
import { DefinitionPath } from '../definitions/schemas';
import { createRouter, jsonBody, jsonContent, problemResponses } from '../openapi';
import { OutboundConfigBody, OutboundConfigView, SendBody, SentView } from './outbound-schemas';

export function outboundRoutes() {
  const app = createRouter();
  const { writer } = definitionGuards('FORMS');
  const tags = ['Forms: outbound'];
  const common = 'OUTBOUND definitions only: an INBOUND one is never sent and answers 404 `definition-not-found`.';

  app.openapi(
    createRoute({
      method: 'put',
      path: '/api/form-definitions/{id}/outbound-config',
      tags,
      summary: 'Set the per-field roles of an outbound form',
      description: `Keys must be value-holding fields of the draft (400 \`validation-failed\`, paths \`roles.<key>\`). Audited as \`outbound_configured\`; a form already sent keeps the roles it was sent with. ${common}`,
      middleware: writer,
      request: { params: DefinitionPath, body: jsonBody(OutboundConfigBody) },
      responses: { 200: jsonContent(OutboundConfigView), ...problemResponses(400, 404) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      return c.json(await setOutboundRoles(deps, actor, c.req.valid('param').id, c.req.valid('json').roles), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/form-definitions/{id}/send',
      tags,
      summary: 'Send an outbound form: a SENT instance pinned to the published version, and its link e-mailed',
      description:
        `The prefill is checked against the published version: unknown keys and invalid values are refused (400 \`validation-failed\`, paths \`prefill.<key>\`), ` +
        'a RECIPIENT field is 400 `field-not-editable`. 409 `form-not-published`. The e-mail is sent after the commit, best effort: its outcome is ' +
        '`deliveryStatus` here and in the instance recipient map, never a failed send. ' +
        common,
      middleware: writer,
      request: { params: DefinitionPath, body: jsonBody(SendBody) },
      responses: { 201: jsonContent(SentView, 'Sent'), ...problemResponses(400, 404, 409) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      const { mailer, logger } = c.get('deps');
      const body = c.req.valid('json');
      const sent = await sendOutboundForm({ ...deps, mailer, logger }, actor, { definitionId: c.req.valid('param').id }, {
        ...body,
        expiresAt: body.expiresAt ? new Date(body.expiresAt) : undefined,
      });
      return c.json(sent, 201);
    },
  );
  return app;
}
