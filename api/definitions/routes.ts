// The one route factory of versioned definitions: forms mount it at /api/form-definitions,
// signatures at /api/signature-definitions, each with its own plug-in.
import type { z } from '@hono/zod-openapi';
import type { DefinitionsTable } from '../../db/schema/definitions';
import { createRouter } from '../openapi';
import { definitionCrudRoutes } from './definition-routes';
import { lifecycleRoutes } from './lifecycle-routes';
import type { DefinitionApi } from './plugin';
import { definitionSchemas } from './schemas';
import { versionRoutes } from './version-routes';

export function definitionRoutes<D extends DefinitionsTable, C extends z.ZodRawShape, V extends z.ZodRawShape>(api: DefinitionApi<D, C, V>) {
  const schemas = definitionSchemas(api.componentPrefix, api.capability.codePrefix, api.createFields, api.viewFields, {
    patch: api.patchFields,
    clone: api.cloneFields,
  });
  const app = createRouter();
  app.route('/', definitionCrudRoutes(api, schemas));
  app.route('/', lifecycleRoutes(api, schemas));
  app.route('/', versionRoutes(api, schemas));
  return app;
}
