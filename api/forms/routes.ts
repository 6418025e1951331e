import type { DocumentsRuntime } from '../documents/runtime';
import { createRouter } from '../openapi';
import { definitionRoutes } from '../definitions/routes';
import { formDefinitionApi } from './definition-plugin';
import { embedTokenRoutes } from './embed-token-routes';
import { instanceRoutes } from './instance-routes';
import { outboundRoutes } from './outbound-routes';
import { publicRecipientRoutes } from './public-recipient-routes';
import { publicRecipientDocumentRoutes } from './public-recipient-document-routes';
import { publicEmbedRoutes } from './public-embed-routes';
import { subscriptionRoutes } from './subscription-routes';
import { instanceAdminRoutes } from './instance-admin-routes';

/** Forms routes: the definitions lifecycle, embed tokens, instances and their operations, event subscriptions, the public embed API, outbound delivery and the recipient API with its attachments (the hosted pages are in web/). */
export function formRoutes(documents: DocumentsRuntime) {
  const app = createRouter();
  app.route('/', definitionRoutes(formDefinitionApi));
  app.route('/', embedTokenRoutes());
  app.route('/', instanceRoutes());
  app.route('/', publicEmbedRoutes());
  app.route('/', subscriptionRoutes());
  app.route('/', instanceAdminRoutes());
  app.route('/', outboundRoutes());
  app.route('/', publicRecipientRoutes());
  app.route('/', publicRecipientDocumentRoutes(documents));
  return app;
}
