import { definitionRoutes } from '../definitions/routes';
import type { DocumentsRuntime } from '../documents/runtime';
import { createRouter } from '../openapi';
import { signatureDefinitionApi } from './definition-plugin';
import { sourceDocumentRoutes } from './document-routes';
import { instanceRoutes } from './instance-routes';
import { publicCopyRoutes } from './public-copy-routes';
import { publicSignRoutes } from './public-sign-routes';

/** Signatures routes: the definitions lifecycle, the source PDF, campaigns, public signing and the signed copy (the hosted signing page is in web/). */
export function signatureRoutes(documents: DocumentsRuntime) {
  const app = createRouter();
  app.route('/', definitionRoutes(signatureDefinitionApi));
  app.route('/', sourceDocumentRoutes(documents));
  app.route('/', instanceRoutes(documents));
  app.route('/', publicSignRoutes(documents));
  app.route('/', publicCopyRoutes(documents));
  return app;
}
