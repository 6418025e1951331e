import { createRouter } from '../openapi';
import { definitionRoutes } from '../definitions/routes';
import { formDefinitionApi } from './definition-plugin';
import { embedTokenRoutes } from './embed-token-routes';
import { instanceRoutes } from './instance-routes';
import { outboundRoutes } from './outbound-routes';
import { publicRecipientRoutes } from './public-recipient-routes';
import { publicEmbedRoutes } from './public-embed-routes';

/** Forms routes: the definitions lifecycle, embed tokens, instances, the public embed API, outbound delivery and the recipient API. */
export function formRoutes() {
  const app = createRouter();
  app.route('/', definitionRoutes(formDefinitionApi));
  app.route('/', embedTokenRoutes());
  app.route('/', instanceRoutes());
  app.route('/', publicEmbedRoutes());
  app.route('/', outboundRoutes());
  app.route('/', publicRecipientRoutes());
  return app;
}
