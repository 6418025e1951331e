import { definitionRoutes } from '../definitions/routes';
import type { DocumentsRuntime } from '../documents/runtime';
import { createRouter } from '../openapi';
import { signatureDefinitionApi } from './definition-plugin';
import { sourceDocumentRoutes } from './document-routes';

/** Signatures routes built so far: the definitions lifecycle and the source PDF. */
export function signatureRoutes(documents: DocumentsRuntime) {
  const app = createRouter();
  app.route('/', definitionRoutes(signatureDefinitionApi));
  app.route('/', sourceDocumentRoutes(documents));
  return app;
}
