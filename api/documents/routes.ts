import { DocumentRegistry } from '../../services/documents/document-registry';
import type { AppDeps } from '../deps';
import { createRouter } from '../openapi';
import { documentRegistryRoutes } from './internal-routes';
import { documentProxyRoutes } from './proxy-routes';
import { DocumentsRuntime } from './runtime';

/** Both tiers of the documents capability: the registry's internal routes and the proxy. */
export function documentRoutes(deps: AppDeps) {
  const registry = new DocumentRegistry(deps);
  const runtime = new DocumentsRuntime(deps, registry);
  if (deps.settings['docstore.scan'] === 'off') {
    deps.logger.warn('docstore.scan=off: uploaded documents become READY without a malware scan');
  }
  const app = createRouter();
  app.route('/', documentRegistryRoutes(registry));
  app.route('/', documentProxyRoutes(runtime));
  return app;
}
