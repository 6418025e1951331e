import { definitionRoutes } from '../definitions/routes';
import type { DocumentsRuntime } from '../documents/runtime';
import { createRouter } from '../openapi';
import { signatureDefinitionApi } from './definition-plugin';
import { sourceDocumentRoutes } from './document-routes';
import { instanceRoutes } from './instance-routes';
import { publicSignRoutes } from './public-sign-routes';

/** Signatures routes: the definitions lifecycle, the source PDF, campaigns, and public signing (the hosted signing page is in web/). */
export function signatureRoutes(documents: DocumentsRuntime) {
  const app = createRouter();
  app.route('/', definitionRoutes(signatureDefinitionApi));
  app.route('/', sourceDocumentRoutes(documents));
  app.route('/', instanceRoutes(documents));
  app.route('/', publicSignRoutes(documents));
  return app;
}
