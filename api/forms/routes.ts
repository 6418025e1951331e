import { createRouter } from '../openapi';
import { definitionRoutes } from '../definitions/routes';
import { formDefinitionApi } from './definition-plugin';
import { embedTokenRoutes } from './embed-token-routes';
import { instanceRoutes } from './instance-routes';
import { publicEmbedRoutes } from './public-embed-routes';
import { subscriptionRoutes } from './subscription-routes';
import { instanceAdminRoutes } from './instance-admin-routes';

/** Forms routes: the definitions lifecycle, embed tokens, instances and the public embed API. */
export function formRoutes() {
  const app = createRouter();
  app.route('/', definitionRoutes(formDefinitionApi));
  app.route('/', embedTokenRoutes());
  app.route('/', instanceRoutes());
  app.route('/', publicEmbedRoutes());
  app.route('/', subscriptionRoutes());
  app.route('/', instanceAdminRoutes());
  return app;
}
