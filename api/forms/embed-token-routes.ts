// Embed tokens of a form definition (spec: GET .../embed-token, POST .../embed-token/rotate).
import { createRoute, z } from '@hono/zod-openapi';
import { getEmbedToken, rotateEmbedToken } from '../../services/forms/embed-tokens';
import { actorOf } from '../definitions/context';
import { definitionGuards } from '../definitions/guards';
import { DefinitionPath } from '../definitions/schemas';
import { createRouter, jsonContent, problemResponses } from '../openapi';

const EmbedToken = z
  .object({
    token: z.string().openapi({ description: 'Signed (HMAC-SHA256) token carrying tenant, definition and embedKeyVersion' }),
    embedKeyVersion: z.number().int(),
    embedUrl: z.string().openapi({ description: '`public.base-url` + `/embed/{token}`' }),
  })
  .openapi('FormEmbedToken');

export function embedTokenRoutes() {
  const app = createRouter();
  const { reader, writer } = definitionGuards('FORMS');
  const tags = ['Forms: embed'];
  const common =
    'INBOUND definitions only: an OUTBOUND one is never embeddable and answers 404. 503 `embed-key-missing` while `forms.embed-key` is unset.';

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/form-definitions/{id}/embed-token',
      tags,
      summary: 'The embed token of a form definition',
      description: `Valid until the next rotation, whatever the definition's status (the public routes only serve a published form). ${common}`,
      middleware: reader,
      request: { params: DefinitionPath },
      responses: { 200: jsonContent(EmbedToken), ...problemResponses(400, 404, 503) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      return c.json(await getEmbedToken(deps, actor, c.req.valid('param').id), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/form-definitions/{id}/embed-token/rotate',
      tags,
      summary: 'Rotate the embed token (bumps embedKeyVersion; every earlier token is refused)',
      description: common,
      middleware: writer,
      request: { params: DefinitionPath },
      responses: { 200: jsonContent(EmbedToken), ...problemResponses(400, 404, 503) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      return c.json(await rotateEmbedToken(deps, actor, c.req.valid('param').id), 200);
    },
  );
  return app;
}
