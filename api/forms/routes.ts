import { createRouter } from '../openapi';
import { definitionRoutes } from '../definitions/routes';
import { formDefinitionApi } from './definition-plugin';
import { embedPageRoutes } from './embed-page-routes';
import { embedTokenRoutes } from './embed-token-routes';
import { instanceRoutes } from './instance-routes';
import { outboundRoutes } from './outbound-routes';
import { publicRecipientRoutes } from './public-recipient-routes';
import { respondPageRoutes } from './respond-page-routes';
import { publicEmbedRoutes } from './public-embed-routes';
import { subscriptionRoutes } from './subscription-routes';
import { instanceAdminRoutes } from './instance-admin-routes';

/** Forms routes: the definitions lifecycle, embed tokens, instances and their operations, event subscriptions, the public embed API, the hosted embed page and the SDK, outbound delivery, the recipient API and its hosted respond page. */
export function formRoutes() {
  const app = createRouter();
  app.route('/', definitionRoutes(formDefinitionApi));
  app.route('/', embedTokenRoutes());
  app.route('/', instanceRoutes());
  app.route('/', publicEmbedRoutes());
  app.route('/', subscriptionRoutes());
  app.route('/', instanceAdminRoutes());
  app.route('/', embedPageRoutes());
  app.route('/', outboundRoutes());
  app.route('/', publicRecipientRoutes());
  app.route('/', respondPageRoutes());
  return app;
}
