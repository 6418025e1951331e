import { DocumentRegistry } from '../../services/documents/document-registry';
import type { AppDeps } from '../deps';
import { createRouter } from '../openapi';
import { documentRegistryRoutes } from './internal-routes';
import { documentProxyRoutes } from './proxy-routes';
import { publicDocumentRoutes } from './public-routes';
import { DocumentsRuntime } from './runtime';

/** The registry and the proxy runtime of one app (one set of upload slots, shared with the PDF render route). */
export function documentsTier(deps: AppDeps) {
  const registry = new DocumentRegistry(deps);
  return { registry, runtime: new DocumentsRuntime(deps, registry) };
}

/** Both tiers of the documents capability: the registry's internal routes and the proxy. */
export function documentRoutes(deps: AppDeps, tier = documentsTier(deps)) {
  const { registry, runtime } = tier;
  if (deps.settings['docstore.scan'] === 'off') {
    deps.logger.warn('docstore.scan=off: uploaded documents become READY without a malware scan');
  }
  const app = createRouter();
  app.route('/', documentRegistryRoutes(registry));
  app.route('/', documentProxyRoutes(runtime));
  app.route('/', publicDocumentRoutes(runtime));
  return app;
}
